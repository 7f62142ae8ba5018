import { canonicalColumn, type SourceDefinition, type SourcePart } from '@bhis/sources';

/** What the ingester keeps of a data set's metadata (`/api/views/ID.json`). */
export interface DatasetMetadata {
  rowsUpdatedAt: number | null;
  /** The published columns: display `name` and stable `fieldName` (computed `:@` columns left out). */
  columns: { name: string; fieldName: string }[];
}

export function readDatasetMetadata(json: unknown): DatasetMetadata {
  const meta = (json ?? {}) as { rowsUpdatedAt?: unknown; columns?: unknown };
  const columns = Array.isArray(meta.columns)
    ? meta.columns.flatMap((column: { name?: unknown; fieldName?: unknown }) =>
        typeof column?.name === 'string' && typeof column.fieldName === 'string' && !column.fieldName.startsWith(':')
          ? [{ name: column.name, fieldName: column.fieldName }]
          : [],
      )
    : [];
  return { rowsUpdatedAt: typeof meta.rowsUpdatedAt === 'number' ? meta.rowsUpdatedAt : null, columns };
}

/** Display name -> field name, for mapping a CSV export's header (null when the metadata lists no columns). */
export function fieldNameMap(meta: DatasetMetadata): Map<string, string> | null {
  return meta.columns.length > 0 ? new Map(meta.columns.map((column) => [column.name, column.fieldName])) : null;
}

/** The data set does not publish the field names a source reads: a JSON pull would load nulls. */
export class SodaFieldMismatchError extends Error {
  override readonly name = 'SodaFieldMismatchError';
}

/**
 * Checks, before the first SODA page, that every field name the part reads for its current header
 * is among the data set's columns. Without a column list (metadata not published) nothing is checked.
 */
export function checkSodaFields(source: SourceDefinition, part: SourcePart, meta: DatasetMetadata): void {
  if (meta.columns.length === 0) return;
  const published = new Set(meta.columns.map((column) => column.fieldName));
  const missing = part.header
    .map((name) => part.sodaFields[canonicalColumn(part, name)])
    .filter((field): field is string => field !== undefined && !published.has(field));
  if (missing.length > 0) {
    throw new SodaFieldMismatchError(
      `${source.key} (${part.part}, ${part.datasetId}): the data set has no field [${[...new Set(missing)].join(', ')}]; ` +
        `published fields: [${[...published].join(', ')}]`,
    );
  }
}
