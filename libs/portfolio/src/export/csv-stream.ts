import { finished } from 'node:stream/promises';
import type { Response } from 'express';
import type { PoolClient } from 'pg';
import type { ReadPool } from '@bhis/db';
import { stringify } from 'csv-stringify';
import { CSV_COLUMNS, ExportRow, toCsvRecord } from './csv-columns';
import type { SqlQuery } from './export-query';

/** Rows fetched from the server-side cursor at a time: memory stays flat whatever the export size. */
const FETCH_SIZE = 500;

/**
 * Streams the rows of a query as CSV through a server-side cursor (DECLARE ... CURSOR in a read-only
 * transaction, FETCH in batches). The first batch is read before the response starts, so a database
 * failure still gets a proper error response; a client that disconnects stops the export.
 */
export async function streamCsv(pool: ReadPool, query: SqlQuery, res: Response, filename: string): Promise<void> {
  // watch for the client from the start: it may leave before the first rows are read
  let aborted = false;
  const onClose = () => {
    if (!res.writableFinished) aborted = true;
  };
  res.on('close', onClose);
  const client = await pool.connect();
  let inTransaction = false;
  try {
    await client.query('BEGIN READ ONLY');
    inTransaction = true;
    await client.query(`SET LOCAL idle_in_transaction_session_timeout = '60s'`);
    await client.query(`DECLARE export_rows NO SCROLL CURSOR FOR ${query.text}`, query.values);
    let batch = await fetchBatch(client);
    if (aborted) {
      await client.query('COMMIT');
      inTransaction = false;
      return;
    }

    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
    res.setHeader('Cache-Control', 'no-store');
    const csv = stringify({ header: true, columns: [...CSV_COLUMNS] });
    csv.pipe(res);

    while (batch.length > 0 && !aborted) {
      for (const row of batch) {
        if (!csv.write(toCsvRecord(row))) await drainOrClose(csv, res);
        if (aborted) break;
      }
      if (batch.length < FETCH_SIZE || aborted) break;
      batch = await fetchBatch(client);
    }
    await client.query('COMMIT');
    inTransaction = false;
    if (aborted) {
      csv.destroy();
      return;
    }
    csv.end();
    // settles when the response is finished or the client is gone ('finish' alone may never come)
    await finished(res).catch(() => undefined);
  } catch (error) {
    if (inTransaction) await client.query('ROLLBACK').catch(() => undefined);
    if (!res.headersSent) throw error;
    // the CSV is already under way: all that can be done is to cut it off so the client sees it is incomplete
    res.destroy(error instanceof Error ? error : undefined);
  } finally {
    res.off('close', onClose);
    client.release();
  }
}

/** Waits until the CSV stream can take more, or the client went away (listeners removed either way). */
function drainOrClose(csv: NodeJS.EventEmitter, res: Response): Promise<void> {
  // the 'close' event may already have happened: then there is nothing to wait for
  if (res.destroyed || res.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      csv.off('drain', done);
      res.off('close', done);
      resolve();
    };
    csv.once('drain', done);
    res.once('close', done);
  });
}

async function fetchBatch(client: PoolClient): Promise<ExportRow[]> {
  const { rows } = await client.query<ExportRow>(`FETCH ${FETCH_SIZE} FROM export_rows`);
  return rows;
}
