import type { AgeBucket, BuildingInput, HistogramRow, SourceFreshnessMap } from '@bhis/scoring';
import type { SourceKey } from '@bhis/sources';
import type { EventCategory, EventType, Severity } from '@bhis/domain';
import type { ChunkFeatures, FactsSqlRow, HistogramSqlRow } from './feature-queries';
import { mergeNewest, NEWEST_IDS, newestEvents, settledCell, type SettledGroupSqlRow } from './settled-histories';

function histogramRow(r: Omit<HistogramSqlRow, 'newest_event_ids'>, newestEventIds: string[]): HistogramRow {
  return {
    source: r.source as SourceKey,
    event_type: r.event_type as EventType,
    category: r.category as EventCategory,
    severity: r.severity as Severity,
    open: r.open,
    scoring_excluded: r.scoring_excluded,
    age_bucket: r.age_bucket as AgeBucket,
    count: r.count,
    amount: Math.max(0, r.amount ?? 0),
    newest_event_ids: newestEventIds,
    newest_occurred_on: r.newest_occurred_on,
  };
}

/**
 * Groups a chunk's histogram rows by BBL, with the settled groups of its buildings as of `asOf`
 * (settled-histories.ts): a settled group adds to the row of its cell read from the events after the
 * horizon, whose records are all newer than its own, or to the cell of another settled group (a
 * group is split by closing date where its cell is not).
 */
export function histogramByBbl(rows: HistogramSqlRow[], settled: readonly SettledGroupSqlRow[] = [], asOf = ''): Map<string, HistogramRow[]> {
  const out = new Map<string, HistogramRow[]>();
  // the cells a settled group may add to: those of the oldest bucket, the only one settled groups fall in besides the undated one
  const oldest = new Map<string, HistogramRow>();
  for (const r of rows) {
    const row = histogramRow(r, r.newest_event_ids.split(','));
    const list = out.get(r.bbl);
    if (list) list.push(row);
    else out.set(r.bbl, [row]);
    if (settled.length > 0 && r.age_bucket === '5y+') oldest.set(cellKey(r.bbl, r), row);
  }
  // each cell a settled group added to: the ids of its events after the horizon (all newer) and the
  // newest settled events so far, with their dates, to merge the next group of the cell in order
  const newestOf = new Map<HistogramRow, { after: string[]; settled: [string, string][] }>();
  for (const group of settled) {
    const cell = settledCell(group, asOf);
    const key = cellKey(group.bbl, cell);
    let row = oldest.get(key);
    if (!row) {
      row = histogramRow({ ...cell, count: 0, amount: 0, newest_occurred_on: null }, []);
      oldest.set(key, row);
      newestOf.set(row, { after: [], settled: [] });
      const list = out.get(group.bbl);
      if (list) list.push(row);
      else out.set(group.bbl, [row]);
    }
    row.count += cell.count;
    // to the cent, as the sum of all the events in SQL would be (a sum of two floats may not be)
    row.amount = Math.round((row.amount + Math.max(0, cell.amount ?? 0)) * 100) / 100;
    if ((cell.newest_occurred_on ?? '') > (row.newest_occurred_on ?? '')) row.newest_occurred_on = cell.newest_occurred_on;
    let newest = newestOf.get(row);
    if (!newest) newestOf.set(row, (newest = { after: row.newest_event_ids, settled: [] }));
    newest.settled = mergeNewest(newest.settled, newestEvents(group));
    row.newest_event_ids = newest.after.concat(newest.settled.map((e) => e[1])).slice(0, NEWEST_IDS);
  }
  return out;
}

const cellKey = (bbl: string, r: Omit<HistogramSqlRow, 'newest_event_ids'>) =>
  `${bbl}|${r.source}|${r.event_type}|${r.category}|${r.severity}|${r.open}|${r.scoring_excluded}|${r.age_bucket}`;

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
