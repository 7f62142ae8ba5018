import type { SourceDefinition, SourcePart } from './definition';
import { normalizeHeaderName } from './header';
import { canonicalColumn, partColumns } from './part-columns';

/** A column of a data set's view metadata (`/api/views/ID.json`): display `name` and SODA `fieldName`. */
export interface PublishedColumn {
  name: string;
  fieldName: string;
}

/** Where each column a part reads is found in SODA JSON rows, as one metadata document says. */
export interface SodaFieldMap {
  /** Canonical column -> field name. A column of an older layout the data set does not carry is absent (read as empty). */
  readonly fields: ReadonlyMap<string, string>;
  /** Columns found although their display name changed: `Postcode -> field zip ("Zip Code")`. */
  readonly followed: readonly string[];
  /** Every field name the metadata publishes (system fields such as `:id` excluded). */
  readonly published: ReadonlySet<string>;
}

/**
 * The metadata does not say where a column the part reads is (or says it twice): a refresh would
 * load that column as empty, so nothing is loaded. Retrying the same run cannot help; the daily
 * refresh tries again, and a column the city renamed beyond recognition needs its new name declared.
 */
export class SodaFieldMismatchError extends Error {
  override readonly name = 'SodaFieldMismatchError';
}

/** Socrata gives a re-created column the old field name with `_1`, `_2`... appended. */
function suffixed(declared: string, fieldName: string): boolean {
  return fieldName.startsWith(`${declared}_`) && /^\d+$/.test(fieldName.slice(declared.length + 1));
}

function dataset(source: SourceDefinition, part: SourcePart): string {
  return `${source.key} (${part.part}, data set ${part.datasetId ?? 'none'})`;
}

/**
 * Maps the part's columns to the field names of a metadata document, without failing: `problems`
 * lists each column of the current header it cannot place. A column is found by its display name
 * (matched as a file's header is: aliases and older spellings included); a column whose display name
 * is gone is followed when the field name the definition declares is still published (Socrata keeps
 * a field name across renames), or published once with a `_N` suffix and no other claim on it.
 */
export function matchSodaFields(part: SourcePart, columns: readonly PublishedColumn[]): { map: SodaFieldMap; problems: string[] } {
  const readable = new Set(partColumns(part));
  const required = part.header.map((name) => canonicalColumn(part, name));
  const fields = new Map<string, string>();
  const owner = new Map<string, string>();
  const followed: string[] = [];
  const problems: string[] = [];
  const byName = new Map<string, PublishedColumn[]>();
  for (const column of columns) {
    const canonical = canonicalColumn(part, column.name);
    if (!readable.has(canonical)) continue;
    byName.set(canonical, [...(byName.get(canonical) ?? []), column]);
  }
  for (const [canonical, hits] of byName) {
    if (hits.length > 1) {
      problems.push(`"${canonical}" is published ${hits.length} times (${hits.map((hit) => `"${hit.name}" = ${hit.fieldName}`).join(', ')})`);
      continue;
    }
    fields.set(canonical, hits[0].fieldName);
    owner.set(hits[0].fieldName, canonical);
  }
  const unclaimed = columns.filter((column) => !owner.has(column.fieldName));
  for (const canonical of partColumns(part)) {
    if (fields.has(canonical) || byName.has(canonical)) continue;
    const declared = part.sodaFields[canonical];
    const same = declared === undefined ? [] : unclaimed.filter((column) => column.fieldName === declared);
    const renamed = declared === undefined || same.length > 0 ? [] : unclaimed.filter((column) => suffixed(declared, column.fieldName));
    const hit = same[0] ?? (renamed.length === 1 ? renamed[0] : undefined);
    if (hit && !owner.has(hit.fieldName)) {
      fields.set(canonical, hit.fieldName);
      owner.set(hit.fieldName, canonical);
      followed.push(`${canonical} -> field ${hit.fieldName} ("${normalizeHeaderName(hit.name)}")`);
    } else if (required.includes(canonical)) {
      const why = renamed.length > 1 ? `; fields ${renamed.map((column) => column.fieldName).join(', ')} could each be it` : '';
      problems.push(`"${canonical}" (declared field ${declared ?? 'none'}) is not published${why}`);
    }
  }
  return { map: { fields, followed, published: new Set(columns.map((column) => column.fieldName)) }, problems };
}

/** As matchSodaFields, failing with SodaFieldMismatchError naming the data set and every column it cannot place. */
export function sodaFieldMap(source: SourceDefinition, part: SourcePart, columns: readonly PublishedColumn[]): SodaFieldMap {
  const { map, problems } = matchSodaFields(part, columns);
  if (problems.length > 0) {
    throw new SodaFieldMismatchError(
      `${dataset(source, part)}: the view metadata does not place ${problems.length === 1 ? 'a column' : `${problems.length} columns`} the source reads: ` +
        `${problems.join('; ')}. Published columns: [${columns.map((column) => `"${normalizeHeaderName(column.name)}" = ${column.fieldName}`).join(', ')}]. ` +
        `Nothing was loaded and the previous data is kept; the daily refresh tries again. If the city renamed the column, declare its new name in the source's definition.`,
    );
  }
  return map;
}

/** The field map of a file without metadata: the definition's declared field names. */
export function declaredSodaFields(part: SourcePart): SodaFieldMap {
  const fields = new Map(Object.entries(part.sodaFields));
  return { fields, followed: [], published: new Set(fields.values()) };
}
