import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { csvToSodaRows, type PublishedColumn, type SourceDefinition } from '@bhis/sources';
import type { SocrataMirror } from './socrata-mirror';

/**
 * The data sets' published view metadata documents (libs/sources/test-fixtures/soda-metadata, sources
 * in its README), found from the checkout the code runs in (source or built).
 */
function metadataDir(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'libs/sources/test-fixtures/soda-metadata');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('cannot find libs/sources/test-fixtures/soda-metadata above the running code (a checkout of the repository is needed)');
}

/** A data set's published view metadata. */
export function publishedMetadata(datasetId: string): { columns: PublishedColumn[] } & Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(metadataDir(), `${datasetId}.json`), 'utf8')) as { columns: PublishedColumn[] };
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
