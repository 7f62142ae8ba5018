import { formatBbl, NormalizedEvent } from '@bhis/domain';
import { Readable } from 'node:stream';
import { DEFAULT_FUTURE_YEARS, DEFAULT_MIN_YEAR } from './casts';
import { classify } from './classification';
import { csvRecords, type LineFilter } from './csv-records';
import { BblLocator, BblResolver, EventDraft, MapContext, RecordOutcome, SourceDefinition, SourcePart } from './definition';
import { HeaderMismatchError, normalizeHeaderName } from './header';
import { FieldNameMap, FileLayout, partColumns, selectLayout } from './layout';
import { CastFailureCounts, FieldValues, RowFields, RowFieldsOptions } from './row-fields';
import { declaredSodaFields, SodaFieldMap } from './soda-fields';
import { type KnownLines, LineHasher, toBigInt } from './line-hashes';

export interface ParseOptions {
  /** BIN -> BBL and registration -> BBL lookups; without it, records found only by BIN are quarantined. */
  resolver?: BblResolver;
  /** Force a part (e.g. `omo`); by default the part whose header matches the file is used. */
  part?: string;
  /** Reference date for the far-future bound of date casts (defaults to now). */
  now?: Date;
  /** Display name -> SODA field name from the data set's metadata (CSV downloads from Open Data). */
  fieldNames?: FieldNameMap;
  /** SODA rows: where each column is, from the data set's metadata (soda-fields.ts); the declared field names without it. */
  sodaFields?: SodaFieldMap;
  /**
   * CSV files: hash every record's text (`ParsedRecord.lineHash`); one whose hash is among `known` is
   * not split, mapped or yielded: it is met (`KnownLines.meet`, on its line of the file: `fileLine` maps
   * the line numbers of the input to the file's) and counted in `counters.unchangedLines`.
   */
  lineHashes?: { known: KnownLines | null; fileLine?: (line: number) => number };
}

export interface ParsedRecord {
  /** Line of the file where the record starts (the header is line 1). For JSON rows: the row's index + 1. */
  lineNumber: number;
  /** The record as read: CSV text, or the JSON object serialized. */
  raw: string;
  outcome: RecordOutcome;
  /** With `ParseOptions.lineHashes`: the hash of the record's text (line-hashes.ts). */
  lineHash?: bigint;
}

export interface ParseCounters {
  source: string;
  part: string | null;
  /** Which declared header the file carried (`current`, `variant N`, `metadata`). */
  variant: string | null;
  /** Columns of the file the source does not read (only when mapped through the metadata). */
  ignoredColumns: string[];
  /** SODA rows: columns found under a display name the definition does not declare (soda-fields.ts). */
  followedColumns: string[];
  read: number;
  ok: number;
  /** Lines not mapped because their hash is stored already (among `read`, not among `ok`). */
  unchangedLines: number;
  quarantined: number;
  quarantinedByReason: Record<string, number>;
  notRelevant: number;
  notRelevantByReason: Record<string, number>;
  castFailures: CastFailureCounts;
  /** Values outside a column's known vocabulary, as `column: WORD` -> records. */
  unmappedWords: Record<string, number>;
  /** SODA rows: fields the metadata does not publish -> rows carrying them (their values are not read). */
  unknownFields: Record<string, number>;
  events: number;
  facts: number;
}

/** The records of one file, as an async iterable; `counters` are final once iteration has ended. */
export interface SourceParse extends AsyncIterable<ParsedRecord> {
  readonly counters: ParseCounters;
}

function emptyCounters(source: string): ParseCounters {
  return {
    source,
    part: null,
    variant: null,
    ignoredColumns: [],
    followedColumns: [],
    read: 0,
    ok: 0,
    unchangedLines: 0,
    quarantined: 0,
    quarantinedByReason: {},
    notRelevant: 0,
    notRelevantByReason: {},
    castFailures: {},
    unmappedWords: {},
    unknownFields: {},
    events: 0,
    facts: 0,
  };
}

function count(counters: ParseCounters, outcome: RecordOutcome): void {
  counters.read += 1;
  if (outcome.kind === 'ok') {
    counters.ok += 1;
    counters.events += outcome.events.length;
    counters.facts += outcome.facts.length;
  } else if (outcome.kind === 'quarantined') {
    counters.quarantined += 1;
    counters.quarantinedByReason[outcome.reason] = (counters.quarantinedByReason[outcome.reason] ?? 0) + 1;
  } else {
    counters.notRelevant += 1;
    counters.notRelevantByReason[outcome.reason] = (counters.notRelevantByReason[outcome.reason] ?? 0) + 1;
  }
}

type Located = { bbl: string | null } | { outcome: RecordOutcome };

function locateBbl(locators: readonly BblLocator[], f: RowFields, resolver: BblResolver | undefined): Located {
  if (locators.length === 0) return { bbl: null };
  let unknownIdentifier: string | null = null;
  for (const locator of locators) {
    switch (locator.kind) {
      case 'bbl_column': {
        const bbl = f.bbl(locator.column);
        if (bbl) return { bbl };
        break;
      }
      case 'borough_block_lot': {
        const borough = f.borough(locator.borough);
        const block = f.block(locator.block);
        const lot = f.lot(locator.lot);
        const bbl = borough !== null && block !== null && lot !== null ? formatBbl(borough, block, lot) : null;
        if (bbl) return { bbl };
        break;
      }
      case 'bin': {
        const bin = f.bin(locator.column);
        if (bin === null || !resolver) break;
        const bbl = resolver.resolveBin(bin);
        if (bbl) return { bbl };
        unknownIdentifier ??= 'bin_not_in_universe';
        break;
      }
      case 'registration': {
        const id = f.int(locator.column);
        if (id === null || id <= 0 || !resolver) break;
        const bbl = resolver.resolveRegistration(id);
        if (bbl) return { bbl };
        unknownIdentifier ??= 'registration_not_in_universe';
        break;
      }
    }
  }
  // A valid BIN that no map knows belongs to a building outside the universe (commercial, demolished):
  // out of scope, not an error of the file.
  return unknownIdentifier
    ? { outcome: { kind: 'not_relevant', reason: unknownIdentifier } }
    : { outcome: { kind: 'quarantined', reason: 'no_bbl', detail: 'no usable BBL, borough/block/lot or BIN' } };
}

interface PartRuntime {
  source: SourceDefinition;
  part: SourcePart;
  /** The column name each position of the file maps to (see layout.ts), computed once per file. */
  columns: (string | null)[];
  /** Columns of the part this file does not carry, read as empty. */
  absent: string[];
  fieldOptions: RowFieldsOptions;
  resolver: BblResolver | undefined;
  counters: ParseCounters;
}

function runtime(source: SourceDefinition, layout: FileLayout, options: ParseOptions, counters: ParseCounters): PartRuntime {
  const { part } = layout;
  counters.part = part.part;
  counters.variant = layout.variant;
  counters.ignoredColumns = layout.ignored;
  const year = (options.now ?? new Date()).getUTCFullYear();
  return {
    source,
    part,
    columns: layout.columns,
    absent: layout.absent,
    resolver: options.resolver,
    counters,
    fieldOptions: {
      dayFirstColumns: new Set(part.dayFirstColumns),
      dateBounds: { minYear: DEFAULT_MIN_YEAR, maxYear: year + DEFAULT_FUTURE_YEARS },
      unmappedWords: counters.unmappedWords,
    },
  };
}

function mapRecord(rt: PartRuntime, values: FieldValues): RecordOutcome {
  const f = new RowFields(values, rt.counters.castFailures, rt.fieldOptions);
  try {
    const irrelevant = rt.part.isRelevant?.(f) ?? null;
    if (irrelevant) return { kind: 'not_relevant', reason: irrelevant };
    const recordKey = rt.part.recordKey(f);
    if (!recordKey) return { kind: 'quarantined', reason: 'missing_record_key' };
    const located = locateBbl(rt.part.bbl, f, rt.resolver);
    if ('outcome' in located) return located.outcome;
    const { bbl } = located;
    const context: MapContext = {
      f,
      source: rt.source.key,
      part: rt.part.part,
      recordKey,
      bbl,
      event: (draft: EventDraft): NormalizedEvent => {
        if (!bbl) throw new Error(`${rt.source.key} produced an event without a BBL`);
        const { category, severity } = classify(draft.event_type, draft.classify_by);
        return {
          bbl,
          source: rt.source.key,
          source_record_id: recordKey,
          event_type: draft.event_type,
          category,
          severity,
          status: draft.status,
          occurred_on: draft.occurred_on,
          closed_on: draft.closed_on ?? null,
          description: draft.description,
          attributes: draft.attributes,
          scoring_excluded: draft.scoring_excluded ?? false,
        };
      },
    };
    return rt.part.map(context);
  } catch (error: unknown) {
    return { kind: 'quarantined', reason: 'mapper_error', detail: error instanceof Error ? error.message : String(error) };
  }
}

/** The position of each column the part reads in a file of this layout (-1: the file lacks it, read as empty). */
function columnIndex(rt: PartRuntime): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < rt.columns.length; i++) {
    const column = rt.columns[i];
    if (column !== null) index.set(column, i);
  }
  for (const column of rt.absent) index.set(column, -1);
  return index;
}

/** A record's values by column name, read from its fields in place (no per-record map). */
class RecordValues implements FieldValues {
  constructor(
    private readonly index: ReadonlyMap<string, number>,
    private readonly fields: readonly string[],
  ) {}

  get(column: string): string | undefined {
    const at = this.index.get(column);
    if (at === undefined) return undefined;
    return at < 0 ? '' : (this.fields[at] ?? '');
  }

  has(column: string): boolean {
    return this.index.has(column);
  }
}

/**
 * Text Postgres cannot store, where a single value would fail the COPY of the whole file: a NUL
 * character (text and jsonb hold none), and in SODA rows a lone UTF-16 surrogate (JSON can escape
 * one, jsonb refuses it; text decoded from a file's UTF-8 bytes never holds one). Such a record is
 * quarantined; its raw text is kept with U+FFFD in place of each NUL.
 */
const NUL = '\u0000';
const LONE_SURROGATE = /\p{Cs}/u;
const NUL_OUTCOME: RecordOutcome = { kind: 'quarantined', reason: 'unstorable_text', detail: 'a NUL character (0x00), which Postgres text cannot hold' };
const SURROGATE_OUTCOME: RecordOutcome = { kind: 'quarantined', reason: 'unstorable_text', detail: 'a lone UTF-16 surrogate, which Postgres jsonb cannot hold' };
const withoutNul = (raw: string): string => (raw.includes(NUL) ? raw.replaceAll(NUL, '\uFFFD') : raw);

/** The quarantine of a SODA row with a value Postgres cannot store, or null. */
function unstorableSodaValue(values: ReadonlyMap<string, string>): RecordOutcome | null {
  for (const value of values.values()) {
    if (value.includes(NUL)) return NUL_OUTCOME;
    if (LONE_SURROGATE.test(value)) return SURROGATE_OUTCOME;
  }
  return null;
}

async function* fileRecords(source: SourceDefinition, input: Readable, options: ParseOptions, counters: ParseCounters): AsyncGenerator<ParsedRecord> {
  let header: string[] | null = null;
  let rt: PartRuntime | null = null;
  let index: Map<string, number> | null = null;
  let hasher: LineHasher | null = null;
  const known = options.lineHashes?.known ?? null;
  const fileLine = options.lineHashes?.fileLine ?? ((line: number) => line);
  /** Meets the record of the hasher's last hash if it is known; true when it is. */
  const met = (line: number): boolean => {
    const at = known && hasher ? known.indexOf(hasher.hi, hasher.lo) : -1;
    if (at === -1) return false;
    (known as KnownLines).meet(at, fileLine(line));
    counters.read += 1;
    counters.unchangedLines += 1;
    return true;
  };
  // where the filter last hashed a record it did not know (its line and length), so that it is not hashed twice
  let hashedLine = -1;
  let hashedLength = -1;
  const filter: LineFilter = { known: null };
  for await (const record of csvRecords(input, filter)) {
    if ('unreadable' in record) {
      const outcome: RecordOutcome = { kind: 'quarantined', reason: 'unparseable_row', detail: record.message };
      count(counters, outcome);
      yield { lineNumber: record.lineNumber, raw: withoutNul(record.raw), outcome };
      continue;
    }
    if (header === null || rt === null || index === null) {
      header = record.fields;
      rt = runtime(source, selectLayout(source, header, { part: options.part, fieldNames: options.fieldNames }), options, counters);
      index = columnIndex(rt);
      if (options.lineHashes) {
        const lines = new LineHasher(source.key, header, options.fieldNames);
        hasher = lines;
        if (known && known.size > 0) {
          filter.known = (text, start, end, line) => {
            lines.hashRange(text, start, end);
            hashedLine = line;
            hashedLength = end - start;
            return met(line);
          };
        }
      }
      continue;
    }
    const wellFormed = record.fields.length === header.length && !record.raw.includes(NUL);
    let lineHash: bigint | undefined;
    if (hasher && wellFormed) {
      // a record the filter saw is hashed already; one the strict reader read is hashed (and met) here
      if (hashedLine !== record.lineNumber || hashedLength !== record.raw.length) {
        hasher.hashRange(record.raw, 0, record.raw.length);
        if (met(record.lineNumber)) continue;
      }
      lineHash = toBigInt(hasher.hi, hasher.lo);
    }
    const outcome: RecordOutcome =
      record.fields.length !== header.length
        ? { kind: 'quarantined', reason: 'wrong_column_count', detail: `${record.fields.length} columns, expected ${header.length}` }
        : record.raw.includes(NUL)
          ? NUL_OUTCOME
          : mapRecord(rt, new RecordValues(index, record.fields));
    count(counters, outcome);
    yield { lineNumber: record.lineNumber, raw: withoutNul(record.raw), outcome, ...(lineHash !== undefined ? { lineHash } : {}) };
  }
  if (header === null) throw new HeaderMismatchError(source.key, options.part ?? source.parts[0].part, source.parts[0].header.map(normalizeHeaderName), ['(empty file)']);
}

/**
 * Streams a CSV export of a source (display column names) record by record. The header is checked
 * first (HeaderMismatchError on drift); after that no record aborts the file: each one is ok
 * (events and/or facts), quarantined with a reason, or not relevant.
 */
export function parseSource(source: SourceDefinition, input: Readable, options: ParseOptions = {}): SourceParse {
  const counters = emptyCounters(source.key);
  return { counters, [Symbol.asyncIterator]: () => fileRecords(source, input, options, counters) };
}

function sodaValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** A SODA JSON row (field names) as the display-named row the CSV mapper reads. */
export function sodaRowToValues(part: SourcePart, row: Readonly<Record<string, unknown>>, fields: SodaFieldMap = declaredSodaFields(part)): Map<string, string> {
  const values = new Map<string, string>();
  for (const column of partColumns(part)) {
    const field = fields.fields.get(column);
    values.set(column, field ? sodaValue(row[field]) : '');
  }
  return values;
}

/**
 * The rows and the metadata disagree: the rows carry a field the metadata does not publish where it
 * names one no row carries under the same name (`case_status` for `casestatus`, `zip_1` for `zip`),
 * or none of the fields it names at all. The metadata is stale or wrong, and loading would leave
 * columns empty; a later run (with the metadata caught up) can succeed.
 */
export class SodaRowsMismatchError extends Error {
  override readonly name = 'SodaRowsMismatchError';
}

/** Two field names of one column, as far as Socrata renames go: `_N` suffix and underscores aside. */
const fieldKey = (field: string): string => field.replace(/_\d+$/, '').replace(/_/g, '');

/** Why the rows disagree with the metadata (null when they agree). */
function rowsDisagree(unknown: readonly string[], unseen: ReadonlySet<string>, mapped: number): string | null {
  if (unknown.length === 0) return null;
  if (unseen.size === mapped) return `the rows carry none of the fields it names and fields it does not publish [${unknown.join(', ')}]`;
  const pairs = unknown.flatMap((field) => [...unseen].filter((named) => fieldKey(named) === fieldKey(field)).map((named) => `${field} where it names ${named}`));
  return pairs.length > 0 ? `the rows carry ${pairs.join(', ')}, which no row carries` : null;
}

/** System fields (`:id`, `:updated_at`) come with every row and are not columns of the metadata. */
const isSystemField = (field: string): boolean => field.startsWith(':');

async function* sodaRecords(
  source: SourceDefinition,
  rows: Iterable<Readonly<Record<string, unknown>>> | AsyncIterable<Readonly<Record<string, unknown>>>,
  options: ParseOptions,
  counters: ParseCounters,
): AsyncGenerator<ParsedRecord> {
  const part = options.part ? source.parts.find((candidate) => candidate.part === options.part) : source.parts.find((candidate) => candidate.datasetId);
  if (!part) throw new Error(`source ${source.key} has no Open Data part${options.part ? ` named "${options.part}"` : ''}`);
  const fields = options.sodaFields ?? declaredSodaFields(part);
  const rt = runtime(source, { part, variant: 'soda', columns: [], absent: partColumns(part), ignored: [] }, options, counters);
  counters.followedColumns = [...fields.followed];
  const unseen = new Set(fields.fields.values());
  let index = 0;
  for await (const row of rows) {
    index += 1;
    for (const field of Object.keys(row)) {
      unseen.delete(field);
      if (!fields.published.has(field) && !isSystemField(field)) counters.unknownFields[field] = (counters.unknownFields[field] ?? 0) + 1;
    }
    const values = sodaRowToValues(part, row, fields);
    const outcome = unstorableSodaValue(values) ?? mapRecord(rt, values);
    count(counters, outcome);
    // JSON writes a NUL or a lone surrogate as a six-character escape, which a text column holds
    yield { lineNumber: index, raw: JSON.stringify(row), outcome };
  }
  const disagreement = options.sodaFields && index > 0 ? rowsDisagree(Object.keys(counters.unknownFields), unseen, fields.fields.size) : null;
  if (disagreement) {
    throw new SodaRowsMismatchError(
      `${source.key} (${part.part}, data set ${part.datasetId ?? 'none'}): the rows and the view metadata disagree: ${disagreement}. ` +
        `Nothing was loaded and the previous data is kept; a later run reads the metadata again.`,
    );
  }
}

/** The same normalization for rows of the SODA JSON API (objects keyed by field names). */
export function parseSodaRows(
  source: SourceDefinition,
  rows: Iterable<Readonly<Record<string, unknown>>> | AsyncIterable<Readonly<Record<string, unknown>>>,
  options: ParseOptions = {},
): SourceParse {
  const counters = emptyCounters(source.key);
  return { counters, [Symbol.asyncIterator]: () => sodaRecords(source, rows, options, counters) };
}
