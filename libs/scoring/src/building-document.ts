import { BOROUGH_NAMES, BoroughCode } from '@bhis/domain';
import type { HistogramRow } from './input';
import type { BuildingScore } from './score-building';

/** The facts of a building that its document shows, as the `buildings` table holds them. */
export interface DocumentFacts {
  bbl: string;
  borough: number;
  address: string;
  city: string | null;
  zipcode: string | null;
  residential_units: number;
  total_units: number | null;
  year_built: number | null;
  building_class: string | null;
  owner_name: string | null;
  latitude: number | null;
  longitude: number | null;
}

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

/** The keys of `BuildingCounts` in the order of docs/interface-spec.md (2.4): the one list of them, e.g. for CSV columns. */
export const COUNT_KEYS: readonly (keyof BuildingCounts)[] = [
  'hpd_violations_total',
  'hpd_violations_open',
  'hpd_class_c_open',
  'dob_violations_total',
  'complaints_311',
  'permits',
  'total_events',
];

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

/** The facts part of the building object, in the field order of docs/interface-spec.md (2.2). */
export interface DocumentFactsPart extends Omit<DocumentFacts, 'borough'> {
  borough: BoroughCode;
  borough_name: string;
}

/**
 * The building object of docs/interface-spec.md (2.2), in its field order: what the API, the document
 * cache, the batch lookup and the export serve, as the scoring run stored it. `H` is the health score,
 * a number once the run's peer pass has computed it.
 */
export interface BuildingDocument<H = number> extends DocumentFactsPart {
  scores: ScoresDocument<H>;
  counts: BuildingCounts;
  confidence: BuildingScore['confidence'];
  published_rules: BuildingScore['published_rules'];
}

/** The `scores` object of a building (docs/interface-spec.md, 2.3), in its field order. */
export interface ScoresDocument<H = number> {
  total_score: number;
  health_score: H;
  grade: BuildingScore['grade'];
  label: BuildingScore['label'];
  scorer_id: BuildingScore['scorer_id'];
  peer_group: BuildingScore['peer_group'];
  data_quality: BuildingScore['data_quality'];
  components: BuildingScore['components'];
  flags: BuildingScore['flags'];
}

/** The building object of a building in the data set that no scoring run has scored yet. */
export interface UnscoredBuildingDocument extends DocumentFactsPart {
  scores: null;
  counts: null;
  confidence: null;
}

function factsPart(facts: DocumentFacts): DocumentFactsPart {
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
  };
}

/** The building document from its facts, its score, its counts and its health score. */
export function buildingDocument<H = number>(facts: DocumentFacts, score: BuildingScore, counts: BuildingCounts, healthScore: H): BuildingDocument<H> {
  return {
    ...factsPart(facts),
    scores: scoresDocument(score, healthScore),
    counts,
    confidence: score.confidence,
    published_rules: score.published_rules,
  };
}

function scoresDocument<H>(score: BuildingScore, healthScore: H): ScoresDocument<H> {
  return {
    total_score: score.total_score,
    health_score: healthScore,
    grade: score.grade,
    label: score.label,
    scorer_id: score.scorer_id,
    peer_group: score.peer_group,
    data_quality: score.data_quality,
    components: score.components,
    flags: score.flags,
  };
}

/** The document of a building not scored yet: its facts, with `scores`, `counts` and `confidence` null. */
export function unscoredBuildingDocument(facts: DocumentFacts): UnscoredBuildingDocument {
  return { ...factsPart(facts), scores: null, counts: null, confidence: null };
}
