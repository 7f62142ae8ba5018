import type { PublishedColumn } from '@bhis/sources';

/** What the ingester keeps of a data set's view metadata (`/api/views/ID.json`). */
export interface DatasetMetadata {
  rowsUpdatedAt: number | null;
  /** The published columns: display `name` and SODA `fieldName` (system and computed `:` columns left out). */
  columns: PublishedColumn[];
}

/**
 * The view metadata of a data set is missing its columns or cannot be read: the refresh cannot know
 * where a column is, so nothing is loaded. A later attempt may get a good document (a proxy or a
 * cache served a broken one), so it is retried.
 */
export class DatasetMetadataError extends Error {
  override readonly name = 'DatasetMetadataError';
}

type RawColumn = { name?: unknown; fieldName?: unknown; flags?: unknown };

/**
 * Reads a view metadata document; `dataset` names it in errors. Every column must carry a string
 * `name` and `fieldName`, and no field name may be published twice; columns hidden by Socrata
 * (`:sid`, `:id`, computed `:@` regions) are left out.
 */
export function readDatasetMetadata(json: unknown, dataset: string): DatasetMetadata {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new DatasetMetadataError(`${dataset}: the view metadata is not a JSON object`);
  const meta = json as { rowsUpdatedAt?: unknown; columns?: unknown };
  if (!Array.isArray(meta.columns) || meta.columns.length === 0) throw new DatasetMetadataError(`${dataset}: the view metadata lists no columns`);
  const broken: string[] = [];
  const columns: PublishedColumn[] = [];
  (meta.columns as RawColumn[]).forEach((column, i) => {
    if (typeof column?.name !== 'string' || typeof column.fieldName !== 'string' || column.fieldName === '') {
      broken.push(`column ${i + 1} (${JSON.stringify(column)?.slice(0, 80)})`);
    } else if (!column.fieldName.startsWith(':')) {
      columns.push({ name: column.name, fieldName: column.fieldName });
    }
  });
  const seen = new Set<string>();
  for (const column of columns) {
    if (seen.has(column.fieldName)) broken.push(`field ${column.fieldName} published twice`);
    seen.add(column.fieldName);
  }
  if (broken.length > 0) throw new DatasetMetadataError(`${dataset}: the view metadata is malformed: ${broken.join('; ')}`);
  if (columns.length === 0) throw new DatasetMetadataError(`${dataset}: the view metadata lists only system columns`);
  return { rowsUpdatedAt: typeof meta.rowsUpdatedAt === 'number' ? meta.rowsUpdatedAt : null, columns };
}

/** Display name -> field name, for mapping a CSV export's header. */
export function fieldNameMap(meta: DatasetMetadata): Map<string, string> {
  return new Map(meta.columns.map((column) => [column.name, column.fieldName]));
}
