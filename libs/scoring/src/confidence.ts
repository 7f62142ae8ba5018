import { clamp, round2 } from './curves';
import { DataQuality } from './data-quality';
import { BuildingFeatures, popcount } from './features';
import { freshnessBySource, staleBySource } from './freshness';
import { BuildingInput } from './input';
import {
  DIRECTIONAL_FAMILIES,
  EVIDENCE_FAMILIES,
  FAMILY_INDEX,
  FAMILY_OF_SOURCE,
  SourceFamily,
} from './source-families';
import { SOURCE_KEYS, SourceKey } from '@bhis/sources';

export const CONFIDENCE_TIERS = [
  { tier: 'high', min_score: 0.75 },
  { tier: 'medium', min_score: 0.5 },
  { tier: 'low', min_score: 0.3 },
  { tier: 'insufficient', min_score: 0 },
] as const;
export type ConfidenceTier = (typeof CONFIDENCE_TIERS)[number]['tier'];

/**
 * What the confidence score is made of: coverage of the sources that apply to the building, their
 * freshness, and the precision of the total (the interval the records leave, times how much confirmed
 * evidence there is). Corroboration is reported but not weighed: it moves with single complaints.
 */
export const CONFIDENCE_WEIGHTS = { coverage: 0.3, freshness: 0.3, precision: 0.4 } as const;
/** Events of a lot with several buildings cannot be told apart: the score is multiplied by this. */
export const MULTI_BUILDING_FACTOR = 0.9;
/** Half-width of the total's interval (points) at which precision reaches 0: one grade band. */
export const PRECISION_ZERO_HALF_WIDTH = 15;
/** Confirmed records at which the evidence factor reaches 1 - 1/e. */
export const EVIDENCE_SCALE = 3;
/** The score of a building in the lowest tier is held below the lowest named tier. */
export const INSUFFICIENT_MAX_SCORE = 0.29;
/** The score of a building whose confirmed records' spread crosses a grade boundary is held just below the high tier. */
export const HIGH_NEEDS_ONE_GRADE_BELOW = 0.74;

export interface Confidence {
  score: number;
  tier: ConfidenceTier;
  flags: string[];
  dimensions: { coverage: number; freshness: number; corroboration: number; precision: number };
  /** Range of the total score the records support (Poisson spread of each count of confirmed records). */
  interval: { low: number; high: number };
  /** Why the confidence is at the lowest tier when the model cannot know (public housing, unit count), else null. */
  reason: string | null;
  primary_sources: number;
  active_families: number;
}

export type BuildingKind = 'multiple-dwelling-hpd' | 'multiple-dwelling-other' | 'small-home';

/**
 * Families a building of each kind is expected to have records in. HPD registers, inspects and sues only
 * multiple dwellings under its jurisdiction; a quiet one- or two-family home may have no record anywhere.
 */
export const EXPECTED_FAMILIES: Readonly<Record<BuildingKind, readonly SourceFamily[]>> = {
  'multiple-dwelling-hpd': ['hpd_violations', 'complaints', 'registrations', 'dob'],
  'multiple-dwelling-other': ['complaints', 'dob'],
  'small-home': ['complaints', 'dob'],
};
/** Large buildings (this many units or more) are also expected to have job filings. */
export const PERMITS_EXPECTED_FROM_UNITS = 20;

export const CONFIDENCE_FLAG_RULES: readonly { key: string; rule: string }[] = [
  { key: 'sparse-data-small-building', rule: 'up to 5 units and data quality sparse or minimal' },
  { key: 'stale-source', rule: 'one or more sources of the families considered are not `ok` by the rule of `GET /api/v1/sources`: not refreshed within their cadence allowance, failing, or never loaded' },
  { key: 'stale-source:<key>', rule: 'one per such source, by source key' },
  { key: 'multi-building-lot', rule: `more than one building on the lot (num_buildings > 1): the score is multiplied by ${MULTI_BUILDING_FACTOR}` },
  { key: 'no-registration', rule: 'the building must register with HPD and has no registration' },
  { key: 'complaints-only', rule: 'complaints on record but no violation, order, litigation or emergency repair at all' },
  { key: 'no-hpd-coverage', rule: '3+ units outside HPD jurisdiction: HPD violations, registrations and litigation do not apply' },
  { key: 'no-unit-count', rule: 'no residential unit count (PLUTO and HPD): rates use the 3-unit floor' },
  { key: 'public-housing', rule: 'public housing (see Known limits): lowest tier, with a reason' },
  { key: 'units-unknown', rule: 'unit count not reliable (see Known limits): lowest tier, with a reason' },
  { key: 'no-confirmed-records', rule: 'no record other than tenant reports: lowest tier' },
];

export function buildingKindOf(input: BuildingInput, units: number): BuildingKind {
  if (units < 3) return 'small-home';
  return input.building.in_hpd_jurisdiction ? 'multiple-dwelling-hpd' : 'multiple-dwelling-other';
}

function expectedFamilies(input: BuildingInput, units: number): SourceFamily[] {
  const expected = [...EXPECTED_FAMILIES[buildingKindOf(input, units)]];
  if (units >= PERMITS_EXPECTED_FROM_UNITS) expected.push('permits');
  return expected;
}

const has = (mask: number, family: SourceFamily): boolean => (mask & (1 << FAMILY_INDEX[family])) !== 0;

const SOURCES_OF_FAMILY: Readonly<Record<SourceFamily, readonly SourceKey[]>> = (() => {
  const out = {} as Record<SourceFamily, SourceKey[]>;
  for (const key of SOURCE_KEYS) {
    const family = FAMILY_OF_SOURCE[key];
    if (family !== undefined) (out[family] ??= []).push(key);
  }
  return out;
})();

/**
 * Independent families pointing the same way: the share of active directional families agreeing with
 * the majority (distress or quiet), discounted when fewer than 3 agree; blended with the share of
 * complaint categories of the last 2 years confirmed by a violation or order in the same category.
 */
export function corroborationOf(features: BuildingFeatures): number {
  let active = 0;
  let distressed = 0;
  for (const family of DIRECTIONAL_FAMILIES) {
    if (!has(features.family_mask, family)) continue;
    active++;
    if (has(features.distress_family_mask, family)) distressed++;
  }
  if (active === 0) return 0;
  const majority = Math.max(distressed, active - distressed);
  const support = Math.min(1, (majority - 1) / 2);
  const agreement = (majority / active) * (0.4 + 0.6 * support);
  const complained = popcount(features.complaint_category_mask_2y);
  if (complained === 0) return agreement;
  const confirmed = popcount(features.complaint_category_mask_2y & features.violation_category_mask_2y) / complained;
  return 0.7 * agreement + 0.3 * confirmed;
}

export function activeFamiliesOf(features: BuildingFeatures): number {
  let n = 0;
  for (const family of EVIDENCE_FAMILIES) if (has(features.family_mask, family)) n++;
  return n;
}

export interface ConfidenceEvidence {
  /** The interval of the total score, integers. */
  interval: { low: number; high: number };
  /**
   * Half the spread of the combined log-health (total-score.ts) the confirmed records' Poisson spread
   * leaves: additive over components, so a record of another kind (a complaint) cannot narrow it, as it
   * narrows the interval of the total by moving the total up its concave curve.
   */
  logHealthSpread: number;
  /**
   * The total of the confirmed records alone, with their counts moved one Poisson standard deviation down
   * and up, falls in two grades: then the grade is not high-confidence (at most HIGH_NEEDS_ONE_GRADE_BELOW).
   * Tenant reports do not enter it, so a complaint cannot lift the cap.
   */
  spreadCrossesGrade?: boolean;
  /** Flags and reasons of what the model cannot know for this building. */
  limits: readonly { flag: string; reason: string }[];
}

/** Coverage: the share of the families expected for this kind of building whose sources have been loaded. */
function coverageOf(input: BuildingInput, expected: readonly SourceFamily[]): number {
  let covered = 0;
  for (const family of expected) {
    if (SOURCES_OF_FAMILY[family].some((key) => (input.sources[key]?.last_refreshed_at ?? null) !== null)) covered++;
  }
  return covered / expected.length;
}

export function assessConfidence(input: BuildingInput, features: BuildingFeatures, dataQuality: DataQuality, evidence: ConfidenceEvidence): Confidence {
  const expected = expectedFamilies(input, features.units);
  const coverage = coverageOf(input, expected);

  // Freshness and coverage look at the sources that apply to the building, never at its own records,
  // so a new record (a single complaint) cannot raise them.
  const bySource = freshnessBySource(input.sources, input.as_of);
  const notOk = staleBySource(input.sources, input.as_of);
  const stale: SourceKey[] = [];
  let freshnessSum = 0;
  for (const family of expected) {
    const keys = SOURCES_OF_FAMILY[family];
    let sum = 0;
    for (const key of keys) {
      sum += bySource[key];
      if (notOk[key]) stale.push(key);
    }
    freshnessSum += sum / keys.length;
  }
  for (const family of EVIDENCE_FAMILIES) {
    if (expected.includes(family) || !has(features.family_mask, family)) continue;
    for (const key of SOURCES_OF_FAMILY[family]) if (notOk[key]) stale.push(key);
  }
  const freshness = freshnessSum / expected.length;
  // the spread in points at the bottom of the scale, where a point of total is 0.01 of log-health
  const halfWidth = 100 * evidence.logHealthSpread;
  const evidenceFactor = 1 - Math.exp(-features.confirmed_records / EVIDENCE_SCALE);
  const precision = evidenceFactor * clamp(1 - halfWidth / PRECISION_ZERO_HALF_WIDTH, 0, 1);
  const corroboration = corroborationOf(features);
  const activeFamilies = activeFamiliesOf(features);
  const multiBuilding = (input.building.num_buildings ?? 1) > 1;

  let score = CONFIDENCE_WEIGHTS.coverage * coverage + CONFIDENCE_WEIGHTS.freshness * freshness + CONFIDENCE_WEIGHTS.precision * precision;
  if (multiBuilding) score *= MULTI_BUILDING_FACTOR;
  const lowest = evidence.limits.length > 0 || features.confirmed_records === 0;
  if (evidence.spreadCrossesGrade === true) score = Math.min(score, HIGH_NEEDS_ONE_GRADE_BELOW);
  if (lowest) score = Math.min(score, INSUFFICIENT_MAX_SCORE);
  score = round2(clamp(score, 0, 1));

  const flags: string[] = [];
  for (const limit of evidence.limits) flags.push(limit.flag);
  if (features.confirmed_records === 0) flags.push('no-confirmed-records');
  if (features.units <= 5 && (dataQuality === 'sparse' || dataQuality === 'minimal')) flags.push('sparse-data-small-building');
  if (stale.length > 0) {
    flags.push('stale-source');
    for (const key of [...new Set(stale)].sort()) flags.push(`stale-source:${key}`);
  }
  if (multiBuilding) flags.push('multi-building-lot');
  if (features.registration_status === 'missing') flags.push('no-registration');
  if (features.has_complaints && !features.has_enforcement_records) flags.push('complaints-only');
  if (features.units >= 3 && !input.building.in_hpd_jurisdiction) flags.push('no-hpd-coverage');
  if (input.building.residential_units === 0 && input.building.hpd_legal_units === null) flags.push('no-unit-count');

  const tier: ConfidenceTier = lowest ? 'insufficient' : (CONFIDENCE_TIERS.find((t) => score >= t.min_score)?.tier ?? 'insufficient');

  return {
    score,
    tier,
    flags,
    dimensions: { coverage: round2(coverage), freshness: round2(freshness), corroboration: round2(corroboration), precision: round2(precision) },
    interval: evidence.interval,
    reason: evidence.limits.length > 0 ? evidence.limits.map((limit) => limit.reason).join(' ') : null,
    primary_sources: primarySourcesOf(input, features),
    active_families: activeFamilies,
  };
}

/**
 * Distinct source data sets with a record about the building: PLUTO (the building record itself), HPD
 * jurisdiction when the building is in it, HPD registrations when a registration is known, and every
 * source with at least one event.
 */
function primarySourcesOf(input: BuildingInput, features: BuildingFeatures): number {
  let n = features.distinct_sources + 1;
  if (input.building.in_hpd_jurisdiction) n++;
  if (input.building.registration_end_date !== null && !input.histogram.some((row) => row.source === 'hpd_registrations')) n++;
  return n;
}
