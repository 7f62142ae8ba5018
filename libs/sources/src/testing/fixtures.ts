import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { NormalizedEvent } from '@bhis/domain';
import { BblResolver, SourceDefinition } from '../definition';
import { SourceFacts } from '../facts';
import { ParseCounters, ParsedRecord, parseSodaRows, parseSource, ParseOptions } from '../parse';
import type { PublishedColumn } from '../soda-fields';

/** Test helpers only: the library itself never opens files. */
export { csvToSodaRows } from '../soda-rows';

const REPO_ROOT = path.resolve(__dirname, '../../../..');
/** Real rows as published, kept beside the repository (`../shared`). */
export const SHARED_FIXTURES = path.resolve(REPO_ROOT, '../shared/fixtures/nyc-open-data');
/** Small files written for this library (sources without a published sample, broken files). */
export const LOCAL_FIXTURES = path.resolve(__dirname, '../../test-fixtures');

export interface ParsedFile {
  records: ParsedRecord[];
  counters: ParseCounters;
  events: NormalizedEvent[];
  facts: SourceFacts[];
}

export async function parseFile(source: SourceDefinition, file: string, options: ParseOptions = {}): Promise<ParsedFile> {
  const run = parseSource(source, createReadStream(file), options);
  const records: ParsedRecord[] = [];
  for await (const record of run) records.push(record);
  const events = records.flatMap((record) => (record.outcome.kind === 'ok' ? record.outcome.events : []));
  const facts = records.flatMap((record) => (record.outcome.kind === 'ok' ? record.outcome.facts : []));
  return { records, counters: run.counters, events, facts };
}

export function sharedFixture(name: string): string {
  return path.join(SHARED_FIXTURES, name);
}

export function localFixture(name: string): string {
  return path.join(LOCAL_FIXTURES, name);
}

/** A data set's view metadata document as published (test-fixtures/soda-metadata, sources in its README). */
export function sodaMetadataFixture(datasetId: string): { id: string; columns: (PublishedColumn & { position: number; dataTypeName?: string })[] } {
  return JSON.parse(readFileSync(path.join(LOCAL_FIXTURES, 'soda-metadata', `${datasetId}.json`), 'utf8'));
}

/** A resolver over fixed maps (the loader backs the same interface with Postgres-loaded maps). */
export function mapResolver(bins: Record<number, string> = {}, registrations: Record<number, string> = {}): BblResolver {
  return {
    resolveBin: (bin) => bins[bin] ?? null,
    resolveRegistration: (id) => registrations[id] ?? null,
  };
}

/** Checks the accounting identity every run must satisfy. */
export function expectBalanced(counters: ParseCounters): void {
  expect(counters.read).toBe(counters.ok + counters.quarantined + counters.notRelevant);
}

/** The same rows through the SODA path, collected. */
export async function parseSoda(source: SourceDefinition, rows: Record<string, unknown>[], options: ParseOptions = {}): Promise<ParsedFile> {
  const run = parseSodaRows(source, rows, options);
  const records: ParsedRecord[] = [];
  for await (const record of run) records.push(record);
  const events = records.flatMap((record) => (record.outcome.kind === 'ok' ? record.outcome.events : []));
  const facts = records.flatMap((record) => (record.outcome.kind === 'ok' ? record.outcome.facts : []));
  return { records, counters: run.counters, events, facts };
}
