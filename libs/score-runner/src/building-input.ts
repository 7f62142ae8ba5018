import type { AgeBucket, BuildingInput, HistogramRow, SourceFreshnessMap } from '@bhis/scoring';
import type { SourceKey } from '@bhis/sources';
import type { EventCategory, EventType, Severity } from '@bhis/domain';
import type { ChunkFeatures, FactsSqlRow, HistogramSqlRow } from './feature-queries';

/** Groups a chunk's histogram rows by BBL. */
export function histogramByBbl(rows: HistogramSqlRow[]): Map<string, HistogramRow[]> {
  const out = new Map<string, HistogramRow[]>();
  for (const r of rows) {
    const list = out.get(r.bbl) ?? [];
    list.push({
      source: r.source as SourceKey,
      event_type: r.event_type as EventType,
      category: r.category as EventCategory,
      severity: r.severity as Severity,
      open: r.open,
      scoring_excluded: r.scoring_excluded,
      age_bucket: r.age_bucket as AgeBucket,
      count: r.count,
      amount: Math.max(0, r.amount ?? 0),
      newest_event_ids: r.newest_event_ids ?? [],
      newest_occurred_on: r.newest_occurred_on,
    });
    out.set(r.bbl, list);
  }
  return out;
}

export interface RunContext {
  asOf: string;
  sources: SourceFreshnessMap;
  propensityByZip: Map<string, number>;
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
