import { finished } from 'node:stream/promises';
import type { Response } from 'express';
import type { PoolClient } from 'pg';
import type { ReadPool } from '@bhis/db';
import { stringify } from 'csv-stringify';
import { CSV_COLUMNS, ExportRow, toCsvRecord } from './csv-columns';
import { type ExportQuery, exportMissHeaders } from './export-query';

/** Rows fetched from the server-side cursor at a time: memory stays flat whatever the export size. */
const FETCH_SIZE = 500;

export interface ExportTimeLimits {
  /** A client that takes no data for this long is cut off (its transaction and connection are released). */
  writeTimeoutMs: number;
  /** No export holds a connection longer than this, however fast the client reads. */
  maxDurationMs: number;
}

export const EXPORT_TIME_LIMITS: ExportTimeLimits = { writeTimeoutMs: 20_000, maxDurationMs: 300_000 };

/**
 * Streams the rows of a query as CSV through a server-side cursor (DECLARE ... CURSOR in a read-only
 * transaction, FETCH in batches). For a BBL list, the entries it has no row for are read first, in the
 * same snapshot, and named in headers. The first batch is read before the response starts, so a database
 * failure still gets a proper error response. The export stops, and its connection goes back to the
 * pool, when the client disconnects, takes no data for `writeTimeoutMs`, or the export passes
 * `maxDurationMs`; an error of the connection itself (e.g. the server ending the session) is caught,
 * the connection is discarded and the response cut off.
 */
export async function streamCsv(pool: ReadPool, query: ExportQuery, res: Response, filename: string, limits = EXPORT_TIME_LIMITS): Promise<void> {
  const deadline = Date.now() + limits.maxDurationMs;
  // watch for the client from the start: it may leave before the first rows are read
  let aborted = false;
  const onClose = () => {
    if (!res.writableFinished) aborted = true;
  };
  res.on('close', onClose);
  const client = await pool.connect();
  let clientError: Error | undefined;
  // without a listener an error of a checked-out client (terminated session) would end the process
  const onClientError = (error: Error) => {
    clientError = error;
    aborted = true;
  };
  client.on('error', onClientError);
  let inTransaction = false;
  try {
    // one snapshot for the misses and the rows, so the headers describe the file that follows
    await client.query(query.misses ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN READ ONLY');
    inTransaction = true;
    await client.query(`SET LOCAL idle_in_transaction_session_timeout = '60s'`);
    const missHeaders = query.misses ? await exportMissHeaders(client, query.misses) : [];
    await client.query(`DECLARE export_rows NO SCROLL CURSOR FOR ${query.text}`, query.values);
    let batch = await fetchBatch(client);
    if (aborted) return;

    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
    res.setHeader('Cache-Control', 'no-store');
    for (const [name, value] of missHeaders) res.setHeader(name, value);
    const csv = stringify({ header: true, columns: [...CSV_COLUMNS] });
    csv.on('error', () => {
      aborted = true;
      res.destroy();
    });
    csv.pipe(res);

    while (batch.length > 0 && !aborted) {
      for (const { document, as_of } of batch) {
        if (!csv.write(toCsvRecord(document, as_of))) {
          const waited = await drainOrClose(csv, res, Math.min(limits.writeTimeoutMs, deadline - Date.now()));
          if (waited === 'timeout') aborted = true;
        }
        if (aborted) break;
      }
      if (Date.now() > deadline) aborted = true;
      if (batch.length < FETCH_SIZE || aborted) break;
      batch = await fetchBatch(client);
    }
    if (aborted) {
      csv.destroy();
      // the client gets a cut-off response, so it sees the file is incomplete
      res.destroy();
      return;
    }
    csv.end();
    // settles when the response is finished or the client is gone ('finish' alone may never come)
    await finished(res).catch(() => undefined);
  } catch (error) {
    if (!res.headersSent) throw error;
    // the CSV is already under way: all that can be done is to cut it off so the client sees it is incomplete
    res.destroy();
  } finally {
    res.off('close', onClose);
    if (inTransaction && !clientError) await client.query('COMMIT').catch(() => undefined);
    client.off('error', onClientError);
    // a connection that failed is discarded, not returned to the pool
    client.release(clientError ?? false);
  }
}

/** Waits until the CSV stream can take more, the client went away, or `timeoutMs` passed (listeners removed either way). */
function drainOrClose(csv: NodeJS.EventEmitter, res: Response, timeoutMs: number): Promise<'drained' | 'closed' | 'timeout'> {
  // the 'close' event may already have happened: then there is nothing to wait for
  if (res.destroyed || res.writableEnded) return Promise.resolve('closed');
  return new Promise((resolve) => {
    const done = (outcome: 'drained' | 'closed' | 'timeout') => () => {
      clearTimeout(timer);
      csv.off('drain', onDrain);
      res.off('close', onClose);
      resolve(outcome);
    };
    const onDrain = done('drained');
    const onClose = done('closed');
    const timer = setTimeout(done('timeout'), Math.max(0, timeoutMs));
    csv.once('drain', onDrain);
    res.once('close', onClose);
  });
}

async function fetchBatch(client: PoolClient): Promise<ExportRow[]> {
  const { rows } = await client.query<ExportRow>(`FETCH ${FETCH_SIZE} FROM export_rows`);
  return rows;
}
