import { AGE_BUCKET_KEYS, type AgeBucket, type BuildingInput, type HistogramRow, type SourceFreshnessMap } from '@bhis/scoring';
import { SOURCE_KEYS, type SourceKey } from '@bhis/sources';
import { CATEGORIES, EVENT_TYPES, SEVERITIES, type EventCategory, type EventType, type Severity } from '@bhis/domain';
import type { ChunkFeatures, FactsSqlRow, HistogramSqlRow } from './feature-queries';
import { mergeNewest, NEWEST_IDS, newestEvents, settledCell, type SettledGroupSqlRow } from './settled-histories';

/** The values of a text column of the histogram, each with its place in the list. */
interface Column {
  readonly values: readonly string[];
  readonly ids: ReadonlyMap<string, number>;
}

const column = (values: readonly string[]): Column => ({ values, ids: new Map(values.map((value, i) => [value, i])) });

const SOURCE = column(SOURCE_KEYS);
const EVENT_TYPE = column(EVENT_TYPES);
const CATEGORY = column(CATEGORIES);
const SEVERITY = column(SEVERITIES);
const AGE_BUCKET = column(AGE_BUCKET_KEYS);

/**
 * The vocabulary's own string for a value read from the database. Scoring looks every cell's source,
 * type, category, severity and bucket up in tables and compares them with literals: with the
 * vocabulary's (internalized) strings instead of pg's copies, those are pointer comparisons.
 */
function own(col: Column, value: string): string {
  const id = col.ids.get(value);
  return id === undefined ? value : col.values[id];
}

/** `open` of a cell: true, false, or null for records without a status. */
const OPEN_STATES: readonly (boolean | null)[] = [true, false, null];
const EXCLUDED_STATES: readonly boolean[] = [false, true];
/** `open` as the cell's text writes it (`letter`, settled-histories.ts). */
const OPEN_LETTERS: ReadonlyMap<string, boolean | null> = new Map([['t', true], ['f', false], ['n', null]]);

/**
 * A cell's values, parsed from its text (feature-queries.ts), with its key among a building's cells.
 * `open` is null for records without a status, neither open nor closed, as the model reads it.
 */
type CellValues = Pick<HistogramRow, 'source' | 'event_type' | 'category' | 'severity' | 'open' | 'scoring_excluded' | 'age_bucket'> & { key: number | string };

/**
 * A cell's key among the cells of its building: a number from the places of its values in the
 * vocabulary (hashing a string joined from them took most of the grouping's time), or that string
 * where a value is outside the vocabulary.
 */
function cellKey(cell: Omit<CellValues, 'key'>): number | string {
  const source = SOURCE.ids.get(cell.source);
  const type = EVENT_TYPE.ids.get(cell.event_type);
  const category = CATEGORY.ids.get(cell.category);
  const severity = SEVERITY.ids.get(cell.severity);
  const bucket = AGE_BUCKET.ids.get(cell.age_bucket);
  const open = OPEN_STATES.indexOf(cell.open);
  const excluded = EXCLUDED_STATES.indexOf(cell.scoring_excluded);
  if (source === undefined || type === undefined || category === undefined || severity === undefined || bucket === undefined || open < 0 || excluded < 0) {
    return `${cell.source}|${cell.event_type}|${cell.category}|${cell.severity}|${cell.open}|${cell.scoring_excluded}|${cell.age_bucket}`;
  }
  let key = source;
  key = key * EVENT_TYPE.values.length + type;
  key = key * CATEGORY.values.length + category;
  key = key * SEVERITY.values.length + severity;
  key = key * OPEN_STATES.length + open;
  key = key * EXCLUDED_STATES.length + excluded;
  return key * AGE_BUCKET.values.length + bucket;
}

/** The cells parsed so far, by text: a few thousand distinct ones on the whole city. */
const parsedCells = new Map<string, CellValues>();
const MAX_PARSED_CELLS = 100_000;

/** The values of a cell's text, `source|event_type|category|severity|open|excluded|age bucket`. */
function cellValues(text: string): CellValues {
  const parsed = parsedCells.get(text);
  if (parsed) return parsed;
  const parts = text.split('|');
  if (parts.length !== 7 || !OPEN_LETTERS.has(parts[4]) || (parts[5] !== 't' && parts[5] !== 'f')) throw new Error(`a histogram cell of an unexpected form: ${text}`);
  const cell = {
    source: own(SOURCE, parts[0]) as SourceKey,
    event_type: own(EVENT_TYPE, parts[1]) as EventType,
    category: own(CATEGORY, parts[2]) as EventCategory,
    severity: own(SEVERITY, parts[3]) as Severity,
    open: OPEN_LETTERS.get(parts[4]) as boolean,
    scoring_excluded: parts[5] === 't',
    age_bucket: own(AGE_BUCKET, parts[6]) as AgeBucket,
  };
  const values: CellValues = { ...cell, key: cellKey(cell) };
  if (parsedCells.size >= MAX_PARSED_CELLS) parsedCells.clear();
  parsedCells.set(text, values);
  return values;
}

function histogramRow(cell: CellValues, r: Omit<HistogramSqlRow, 'newest_event_ids'>, newestEventIds: string[]): HistogramRow {
  return {
    source: cell.source,
    event_type: cell.event_type,
    category: cell.category,
    severity: cell.severity,
    open: cell.open,
    scoring_excluded: cell.scoring_excluded,
    age_bucket: cell.age_bucket,
    count: r.count,
    amount: Math.max(0, r.amount ?? 0),
    newest_event_ids: newestEventIds,
    newest_occurred_on: r.newest_occurred_on,
  };
}

function addTo<K, V>(lists: Map<K, V[]>, key: K, value: V): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}

/** A cell settled groups add to: its row, the ids of its events after the horizon (all newer) and the groups. */
interface SettledSum {
  row: HistogramRow;
  after: string[];
  groups: SettledGroupSqlRow[];
}

/** The newest ids of a cell with settled groups: those after the horizon, then the newest settled ones. */
function newestIdsOf(sum: SettledSum): string[] {
  if (sum.after.length >= NEWEST_IDS) return sum.after.slice(0, NEWEST_IDS);
  let settled: [string, string][] = [];
  for (const group of sum.groups) settled = mergeNewest(settled, newestEvents(group));
  return sum.after.concat(settled.map((e) => e[1])).slice(0, NEWEST_IDS);
}

/**
 * Groups a chunk's histogram rows by BBL, with the settled groups of its buildings as of `asOf`
 * (settled-histories.ts): a settled group adds to the row of its cell read from the events after the
 * horizon, whose records are all newer than its own, or to the cell of another settled group (a
 * group is split by closing date where its cell is not).
 */
export function histogramByBbl(rows: HistogramSqlRow[], settled: readonly SettledGroupSqlRow[] = [], asOf = ''): Map<string, HistogramRow[]> {
  const out = new Map<string, HistogramRow[]>();
  // by building, the cells a settled group may add to: those of the oldest bucket, the only one
  // settled groups fall in besides the undated one
  const oldest = new Map<string, Map<number | string, SettledSum>>();
  for (const r of rows) {
    const cell = cellValues(r.cell);
    const row = histogramRow(cell, r, r.newest_event_ids.split(','));
    addTo(out, r.bbl, row);
    if (settled.length > 0 && cell.age_bucket === '5y+') cellsOf(oldest, r.bbl).set(cell.key, { row, after: row.newest_event_ids, groups: [] });
  }
  for (const group of settled) {
    const read = settledCell(group, asOf);
    const cell = cellValues(read.cell);
    const row = histogramRow(cell, read, []);
    const cells = cellsOf(oldest, group.bbl);
    let sum = cells.get(cell.key);
    if (!sum) {
      row.count = 0;
      row.amount = 0;
      row.newest_occurred_on = null;
      sum = { row, after: [], groups: [] };
      cells.set(cell.key, sum);
      addTo(out, group.bbl, row);
    }
    addSettled(sum, read, group);
  }
  for (const cells of oldest.values()) {
    for (const sum of cells.values()) if (sum.groups.length > 0) sum.row.newest_event_ids = newestIdsOf(sum);
  }
  return out;
}

function cellsOf(oldest: Map<string, Map<number | string, SettledSum>>, bbl: string): Map<number | string, SettledSum> {
  let cells = oldest.get(bbl);
  if (!cells) oldest.set(bbl, (cells = new Map()));
  return cells;
}

function addSettled(sum: SettledSum, cell: Omit<HistogramSqlRow, 'newest_event_ids'>, group: SettledGroupSqlRow): void {
  const row = sum.row;
  row.count += cell.count;
  // to the cent, as the sum of all the events in SQL would be (a sum of two floats may not be)
  row.amount = Math.round((row.amount + Math.max(0, cell.amount ?? 0)) * 100) / 100;
  if ((cell.newest_occurred_on ?? '') > (row.newest_occurred_on ?? '')) row.newest_occurred_on = cell.newest_occurred_on;
  sum.groups.push(group);
}

export interface RunContext {
  asOf: string;
  sources: SourceFreshnessMap;
  propensityByZip: Map<string, number>;
  /** the horizon of the settled histories the run reads; null: it reads all the events */
  settledHorizon: string | null;
}

export function buildingInput(facts: FactsSqlRow, histogram: HistogramRow[], chunk: ChunkFeatures, run: RunContext): BuildingInput {
  return {
    building: {
      bbl: facts.bbl,
      residential_units: Math.max(0, facts.residential_units ?? 0),
      total_units: facts.total_units,
      year_built: facts.year_built,
      building_class: facts.building_class,
      num_buildings: facts.num_buildings,
      in_hpd_jurisdiction: facts.in_hpd_jurisdiction,
      hpd_legal_units: facts.hpd_legal_units,
      registration_end_date: facts.registration_end_date,
      management_program: facts.management_program,
      owner_name: facts.owner_name,
    },
    as_of: run.asOf,
    histogram,
    sources: run.sources,
    aggregates: { heat_season_complaints: chunk.heatSeason.get(facts.bbl) ?? 0 },
    context: { area_complaint_propensity: facts.zipcode ? (run.propensityByZip.get(facts.zipcode) ?? null) : null },
  };
}
