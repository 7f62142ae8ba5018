import { readFileSync } from 'node:fs';
import path from 'node:path';
import { csvToSodaRows, type PublishedColumn, type SourceDefinition } from '@bhis/sources';
import { repoRoot } from './repo';
import type { SocrataMirror } from './socrata-mirror';

/** A data set's published view metadata (libs/sources/test-fixtures/soda-metadata). */
export function publishedMetadata(datasetId: string): { columns: PublishedColumn[] } & Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(repoRoot(), 'libs/sources/test-fixtures/soda-metadata', `${datasetId}.json`), 'utf8')) as { columns: PublishedColumn[] };
}

/**
 * Puts a source's rows (CSV text by file name, as the synthetic city writes them) into the mirror:
 * each Open Data part gets its real metadata document, stamped `rowsUpdatedAt`, and its rows as SODA
 * JSON named by that metadata (none for a part without a file). A set the city replaces whole is read
 * whole by a refresh: give its whole file, which is also served as the CSV export. Returns the rows published.
 */
export function publishSyntheticRefresh(mirror: SocrataMirror, source: SourceDefinition, csvByFile: Readonly<Record<string, string>>, rowsUpdatedAt: number): number {
  let published = 0;
  for (const part of source.parts) {
    if (!part.datasetId) continue;
    const metadata = publishedMetadata(part.datasetId);
    const texts = Object.entries(csvByFile).filter(([name]) => part.fileNames.some((known) => known.toLowerCase() === name.toLowerCase()));
    const rows = texts.flatMap(([, text]) => csvToSodaRows(part, text, metadata.columns, { isoDates: true }));
    const csv = source.refresh === 'whole_replace' && texts.length === 1 ? texts[0][1] : undefined;
    mirror.publish(part.datasetId, { metadata: { ...metadata, rowsUpdatedAt }, rows, csv });
    published += rows.length;
  }
  return published;
}
