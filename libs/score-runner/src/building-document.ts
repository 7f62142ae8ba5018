import { BOROUGH_NAMES, BoroughCode } from '@bhis/domain';
import type { BuildingScore, HistogramRow } from '@bhis/scoring';
import type { FactsSqlRow } from './feature-queries';

/** The counts of a building (docs/interface-spec.md, 2.4), from its event histogram. */
export interface BuildingCounts {
  hpd_violations_total: number;
  hpd_violations_open: number;
  hpd_class_c_open: number;
  dob_violations_total: number;
  complaints_311: number;
  permits: number;
  total_events: number;
}

const DOB_VIOLATIONS = new Set(['dob_violation', 'ecb_violation', 'dob_safety_violation']);
const PERMITS = new Set(['dob_job_filing', 'dob_now_job_filing']);

export function countsOf(histogram: readonly HistogramRow[]): BuildingCounts {
  const counts: BuildingCounts = {
    hpd_violations_total: 0,
    hpd_violations_open: 0,
    hpd_class_c_open: 0,
    dob_violations_total: 0,
    complaints_311: 0,
    permits: 0,
    total_events: 0,
  };
  for (const row of histogram) {
    counts.total_events += row.count;
    if (row.event_type === 'hpd_violation') {
      counts.hpd_violations_total += row.count;
      if (row.open) counts.hpd_violations_open += row.count;
      if (row.open && row.severity === 'critical') counts.hpd_class_c_open += row.count;
    } else if (DOB_VIOLATIONS.has(row.event_type)) {
      counts.dob_violations_total += row.count;
    } else if (row.event_type === 'complaint_311' && !row.scoring_excluded) {
      // a 311 request that is also an HPD complaint is counted once, as the complaint
      counts.complaints_311 += row.count;
    } else if (PERMITS.has(row.event_type)) {
      counts.permits += row.count;
    }
  }
  return counts;
}

/** Stands for the health score in a staged document until the run's peer pass has computed it. */
const HEALTH_PENDING = '__health_score__';
const HEALTH_PLACEHOLDER = JSON.stringify(HEALTH_PENDING);

/**
 * The building object of docs/interface-spec.md (2.2), in its field order: what the API, the document
 * cache, the batch lookup and the export serve, as the scoring run stored it. `H` is the health score,
 * a number once the run's peer pass has computed it.
 */
export interface BuildingDocument<H = number> {
  bbl: string;
  address: FactsSqlRow['address'];
  city: FactsSqlRow['city'];
  zipcode: FactsSqlRow['zipcode'];
  borough: BoroughCode;
  borough_name: string;
  residential_units: FactsSqlRow['residential_units'];
  total_units: FactsSqlRow['total_units'];
  year_built: FactsSqlRow['year_built'];
  building_class: FactsSqlRow['building_class'];
  owner_name: FactsSqlRow['owner_name'];
  latitude: FactsSqlRow['latitude'];
  longitude: FactsSqlRow['longitude'];
  scores: {
    total_score: number;
    health_score: H;
    grade: BuildingScore['grade'];
    label: BuildingScore['label'];
    scorer_id: BuildingScore['scorer_id'];
    peer_group: BuildingScore['peer_group'];
    data_quality: BuildingScore['data_quality'];
    components: BuildingScore['components'];
    flags: BuildingScore['flags'];
  };
  counts: BuildingCounts;
  confidence: BuildingScore['confidence'];
  published_rules: BuildingScore['published_rules'];
}

/** The building document from its facts, its score, its counts and its health score. */
export function buildingDocument<H = number>(facts: FactsSqlRow, score: BuildingScore, counts: BuildingCounts, healthScore: H): BuildingDocument<H> {
  const borough = facts.borough as BoroughCode;
  return {
    bbl: facts.bbl,
    address: facts.address,
    city: facts.city,
    zipcode: facts.zipcode,
    borough,
    borough_name: BOROUGH_NAMES[borough],
    residential_units: facts.residential_units,
    total_units: facts.total_units,
    year_built: facts.year_built,
    building_class: facts.building_class,
    owner_name: facts.owner_name,
    latitude: facts.latitude,
    longitude: facts.longitude,
    scores: {
      total_score: score.total_score,
      health_score: healthScore,
      grade: score.grade,
      label: score.label,
      scorer_id: score.scorer_id,
      peer_group: score.peer_group,
      data_quality: score.data_quality,
      components: score.components,
      flags: score.flags,
    },
    counts,
    confidence: score.confidence,
    published_rules: score.published_rules,
  };
}

/**
 * The document as a run stages it, as JSON text: the health score is known only after the run's peer
 * pass, so it stands as a placeholder until `documentWithHealthSql` fills it in at switch-in (text,
 * not jsonb, so the field order of the contract is kept).
 */
export function buildingDocumentText(facts: FactsSqlRow, score: BuildingScore, counts: BuildingCounts): string {
  return JSON.stringify(buildingDocument(facts, score, counts, HEALTH_PENDING));
}

/** SQL of the final document (json) from a staged document and its health score column. */
export function documentWithHealthSql(stagedDocument: string, healthScore: string): string {
  return `replace(${stagedDocument}, '${HEALTH_PLACEHOLDER}', ${healthScore}::text)::json`;
}
