import type { SourceDefinition, SourcePart } from './definition';
import { matchSodaFields } from './soda-fields';
import { canonicalColumn, partColumns } from './part-columns';

export { ambiguousColumns, canonicalColumn, partColumns } from './part-columns';
import { diffHeader, headerKey, HeaderMismatchError, headersMatch, matchHeader, normalizeHeaderName, repeatedHeaderNames } from './header';

/**
 * How the columns of one file map to the columns a part's mapper reads. Every declared header (the
 * current one and the older variants) maps to the same canonical column names: a name the current
 * header also has (normalised) takes its canonical name, an alias renames it, any other name is a
 * column of its own (read as empty in files of other variants).
 */
export interface FileLayout {
  part: SourcePart;
  /** `current`, `variant N` (1-based index in headerVariants) or `metadata` (mapped through field names). */
  variant: string;
  /** The canonical column of each position of the file; null for a column the source does not read. */
  columns: (string | null)[];
  /** Canonical columns this file does not carry (read as empty). */
  absent: string[];
  /** File columns mapped to nothing (metadata path only: columns the city added). */
  ignored: string[];
}

/** Display name -> SODA field name, from the data set's metadata (`/api/views/ID.json` columns). */
export type FieldNameMap = ReadonlyMap<string, string>;


function layoutOf(part: SourcePart, variant: string, columns: (string | null)[], ignored: string[] = []): FileLayout {
  const present = new Set(columns.filter((column): column is string => column !== null));
  return { part, variant, columns, absent: partColumns(part).filter((column) => !present.has(column)), ignored };
}

function declaredMatch(part: SourcePart, header: readonly string[]): FileLayout | null {
  const declared = [part.header, ...part.headerVariants];
  const index = declared.findIndex((expected) => headersMatch(expected, header));
  if (index === -1) return null;
  const expected = declared[index];
  const { positions } = matchHeader(expected, header);
  return layoutOf(part, index === 0 ? 'current' : `variant ${index}`, positions.map((j) => canonicalColumn(part, expected[j as number])));
}

/** Field name -> canonical column, as the metadata's own columns place them (soda-fields.ts). */
function columnsByField(part: SourcePart, fieldNames: FieldNameMap): Map<string, string> {
  const { map } = matchSodaFields(part, [...fieldNames].map(([name, fieldName]) => ({ name, fieldName })));
  return new Map([...map.fields].map(([column, field]) => [field, column]));
}

function fieldOf(fieldNames: FieldNameMap, name: string): string | undefined {
  return fieldNames.get(name) ?? fieldNames.get(normalizeHeaderName(name)) ?? [...fieldNames].find(([display]) => headerKey(display) === headerKey(name))?.[1];
}

/**
 * Through the data set's metadata: display name -> field name -> canonical column. A renamed display
 * name loads unchanged; a column whose field name the source does not know is ignored (and reported).
 * Fails when a column of the current header cannot be found, or two file columns land on one column.
 */
function metadataLayout(source: SourceDefinition, part: SourcePart, header: readonly string[], fieldNames: FieldNameMap): FileLayout {
  const byField = columnsByField(part, fieldNames);
  const columns = header.map((name) => {
    const field = fieldOf(fieldNames, name);
    return field !== undefined ? (byField.get(field) ?? null) : null;
  });
  const ignored = header.filter((_, i) => columns[i] === null).map(normalizeHeaderName);
  const present = new Set(columns.filter((column): column is string => column !== null));
  const required = part.header.map((name) => canonicalColumn(part, name)).filter((column) => part.sodaFields[column] !== undefined);
  const missing = required.filter((column) => !present.has(column));
  const repeated = columns.filter((column, i) => column !== null && columns.indexOf(column) !== i) as string[];
  if (missing.length > 0 || repeated.length > 0) {
    throw new HeaderMismatchError(source.key, part.part, missing, repeated.length > 0 ? repeated.map((c) => `(two columns for ${c})`) : ignored, header);
  }
  return layoutOf(part, 'metadata', columns, ignored);
}

export interface LayoutOptions {
  /** Force a part (e.g. `hwo`); by default the part whose header matches the file is used. */
  part?: string;
  /** Display name -> field name from the data set's metadata, when the file came from Open Data. */
  fieldNames?: FieldNameMap;
}

/**
 * Picks the part and the declared header the file carries, by normalised name and never by position.
 * A file that matches no declared header loads through the metadata when it is given (and only for
 * parts on Open Data); otherwise it fails naming the missing and unexpected columns.
 */
export function selectLayout(source: SourceDefinition, header: readonly string[], options: LayoutOptions = {}): FileLayout {
  const candidates = options.part ? source.parts.filter((part) => part.part === options.part) : source.parts;
  if (candidates.length === 0) throw new Error(`source ${source.key} has no part "${options.part}"`);
  for (const part of candidates) {
    const layout = declaredMatch(part, header);
    if (layout) return layout;
  }
  const repeated = repeatedHeaderNames(header);
  if (repeated.length > 0) throw new HeaderMismatchError(source.key, candidates[0].part, [], repeated.map((names) => `(duplicate column names: ${names})`));
  const withMetadata = candidates.filter((part) => part.datasetId);
  if (options.fieldNames && withMetadata.length > 0) {
    const fieldNames = options.fieldNames;
    const errors: HeaderMismatchError[] = [];
    for (const part of withMetadata) {
      try {
        return metadataLayout(source, part, header, fieldNames);
      } catch (error) {
        if (!(error instanceof HeaderMismatchError)) throw error;
        errors.push(error);
      }
    }
    throw errors[0];
  }
  const closest = candidates
    .flatMap((part) => [part.header, ...part.headerVariants].map((expected) => ({ part, diff: diffHeader(expected, header) })))
    .sort((a, b) => a.diff.missing.length + a.diff.unexpected.length - (b.diff.missing.length + b.diff.unexpected.length))[0];
  throw new HeaderMismatchError(source.key, closest.part.part, closest.diff.missing, closest.diff.unexpected, header);
}
