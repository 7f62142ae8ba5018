import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';
import { getSource, parseSource, type PublishedColumn, sourceForFile, type SourceDefinition } from '@bhis/sources';
import { loadSource } from '../load-source';
import { createRun } from '@bhis/runs';

const REPO_ROOT = path.resolve(__dirname, '../../../..');
export const SHARED_FIXTURES = path.resolve(REPO_ROOT, '../shared/fixtures/nyc-open-data');
export const LOCAL_FIXTURES = path.resolve(REPO_ROOT, 'libs/sources/test-fixtures');

/** The columns of a data set's published view metadata (libs/sources/test-fixtures/soda-metadata, sources in its README). */
export function publishedColumns(datasetId: string): PublishedColumn[] {
  const doc = JSON.parse(readFileSync(path.join(LOCAL_FIXTURES, 'soda-metadata', `${datasetId}.json`), 'utf8')) as { columns: PublishedColumn[] };
  return doc.columns.map(({ name, fieldName }) => ({ name, fieldName }));
}

/** Every fixture file a source claims, with its source (the drifted ECB header and garbage files excluded). */
export function fixtureFiles(): { file: string; source: SourceDefinition }[] {
  const files = [
    ...readdirSync(SHARED_FIXTURES).map((f) => path.join(SHARED_FIXTURES, f)),
    ...readdirSync(LOCAL_FIXTURES).map((f) => path.join(LOCAL_FIXTURES, f)),
  ];
  return files
    .map((file) => ({ file, match: sourceForFile(file) }))
    .filter((x): x is { file: string; match: NonNullable<ReturnType<typeof sourceForFile>> } => x.match !== null)
    .map(({ file, match }) => ({ file, source: match.source }));
}

/** Adds the BBLs a file names to the building universe (real fixture rows come from unrelated buildings). */
export async function seedUniverseFor(pool: Pool, source: SourceDefinition, file: string): Promise<void> {
  const bbls = new Set<string>();
  for await (const record of parseSource(source, createReadStream(file))) {
    if (record.outcome.kind !== 'ok') continue;
    for (const e of record.outcome.events) bbls.add(e.bbl);
    for (const f of record.outcome.facts) if ('bbl' in f) bbls.add(f.bbl);
  }
  await pool.query(
    `INSERT INTO buildings (bbl, borough, block, lot, address, residential_units)
     SELECT b, substr(b, 1, 1)::smallint, substr(b, 2, 5)::int, substr(b, 7, 4)::int, 'TEST ' || b, 10 FROM unnest($1::text[]) b
     ON CONFLICT (bbl) DO NOTHING`,
    [[...bbls]],
  );
}

export async function loadFile(pool: Pool, source: SourceDefinition, file: string, observedOn = '2026-11-01') {
  const runId = await createRun(pool, { source: source.key, trigger: 'test', input: file });
  const info = await stat(file);
  const counts = await loadSource(pool, source, { kind: 'csv', stream: createReadStream(file), totalBytes: info.size }, { runId, observedOn });
  return { runId, counts };
}

/** Loads rows as a SODA JSON refresh of the source would serve them, in a run of their own. */
export async function loadRows(pool: Pool, source: string, rows: Record<string, unknown>[], observedOn = '2026-11-20') {
  const runId = await createRun(pool, { source, trigger: 'test', input: 'soda' });
  return loadSource(pool, getSource(source), { kind: 'soda', rows: (async function* () { yield* rows; })() }, { runId, observedOn });
}
