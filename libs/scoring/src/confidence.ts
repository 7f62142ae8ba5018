import { clamp, round2 } from './curves';
import { DataQuality } from './data-quality';
import { BuildingFeatures } from './features';
import { FITTED_MODEL, FittedConfidence } from './fitted-model';
import { gradeOf, maxScoreOf, minScoreOf } from './grades';
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
 * freshness, and the precision of the grade (how far the total sits from its grade's cut-offs, in the
 * moves a total of its kind is expected to make in 12 months).
 */
export const CONFIDENCE_WEIGHTS = { coverage: 0.3, freshness: 0.3, precision: 0.4 } as const;
/** Events of a lot with several buildings cannot be told apart: the score is multiplied by this. */
export const MULTI_BUILDING_FACTOR = 0.9;
/**
 * Precision per expected move of margin (at most 1): with full coverage and freshness, a margin of one
 * expected move reaches the high tier (0.3 + 0.3 + 0.4 x 0.375 = 0.75): a high-confidence grade survives
 * the move its total is expected to make in a year.
 */
export const PRECISION_PER_EXPECTED_MOVE = 0.375;
/** A total moves by whole points: an expected move below this is read as this. */
export const MIN_EXPECTED_MOVE = 1;
/** The score of a building in the lowest tier is held below the lowest named tier. */
export const INSUFFICIENT_MAX_SCORE = 0.29;

export interface Confidence {
  score: number;
  tier: ConfidenceTier;
  flags: string[];
  dimensions: { coverage: number; freshness: number; corroboration: number; precision: number };
  /**
   * Where the total is expected to be 12 months later: the total plus and minus the expected move times
   * the fitted multiplier of the tier (fitted-constants.ts), within 0-100.
   */
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
 * Independent families of confirmed records pointing the same way: the share of active directional
 * families (tenant reports left out) agreeing with the majority (distress or quiet), discounted when
 * fewer than 3 agree. `features` are those of the confirmed records alone, so a complaint cannot move it.
 */
export function corroborationOf(features: BuildingFeatures): number {
  let active = 0;
  let distressed = 0;
  for (const family of DIRECTIONAL_FAMILIES) {
    if (family === 'complaints' || !has(features.family_mask, family)) continue;
    active++;
    if (has(features.distress_family_mask, family)) distressed++;
  }
  if (active === 0) return 0;
  const majority = Math.max(distressed, active - distressed);
  const support = Math.min(1, (majority - 1) / 2);
  return (majority / active) * (0.4 + 0.6 * support);
}

export function activeFamiliesOf(features: BuildingFeatures): number {
  let n = 0;
  for (const family of EVIDENCE_FAMILIES) if (has(features.family_mask, family)) n++;
  return n;
}

export interface ConfidenceEvidence {
  /** The total score (integer). */
  total: number;
  /**
   * The total of the confirmed records alone (tenant reports left out), anchored and held as the total
   * is: the floor of the grade margin below, so the part of a total that rests on tenant reports alone
   * never makes its grade look surer.
   */
  confirmedTotal: number;
  /** Half the spread of that total with every count of confirmed records moved one Poisson standard deviation down and up (points). */
  confirmedSpread: number;
  /** The features of the confirmed records alone (corroboration). */
  confirmedFeatures: BuildingFeatures;
  /** Flags and reasons of what the model cannot know for this building. */
  limits: readonly { flag: string; reason: string }[];
}

/** What the confidence of a building is computed from; none of it can rise with a new tenant report. */
export interface ConfidenceParts {
  coverage: number;
  freshness: number;
  corroboration: number;
  total: number;
  /** Points the total can move before its grade changes (gradeMarginOf). */
  margin: number;
  confirmedSpread: number;
  multiBuilding: boolean;
  /** No confirmed record, or a known limit: the lowest tier. */
  lowest: boolean;
}

/**
 * Points the total can move before the grade changes: up to the next grade's cut-off from the total, down
 * to the grade's own cut-off from the lower of the total and the confirmed records' total (grade A has no
 * cut-off below, F none above). Less than 1 when the confirmed records alone fall in a lower grade.
 */
export function gradeMarginOf(total: number, confirmedTotal: number): number {
  const grade = gradeOf(total);
  const margins: number[] = [];
  if (grade !== 'F') margins.push(maxScoreOf(grade) + 1 - total);
  if (grade !== 'A') margins.push(Math.min(total, confirmedTotal) - minScoreOf(grade) + 1);
  return Math.min(...margins);
}

/** The move of the total expected over 12 months, in points (FittedConfidence.move). */
export function expectedMoveOf(confirmedSpread: number, corroboration: number, model: FittedConfidence = FITTED_MODEL.confidence): number {
  const { base, spread, uncorroborated } = model.move;
  return Math.max(MIN_EXPECTED_MOVE, base + spread * confirmedSpread + uncorroborated * (1 - corroboration));
}

export function confidenceTierOf(score: number, lowest: boolean): ConfidenceTier {
  return lowest ? 'insufficient' : (CONFIDENCE_TIERS.find((t) => score >= t.min_score)?.tier ?? 'insufficient');
}

/** The total plus and minus `halfWidth`, rounded, within 0-100. */
export function intervalOf(total: number, halfWidth: number): { low: number; high: number } {
  return { low: Math.max(0, Math.round(total - halfWidth)), high: Math.min(100, Math.round(total + halfWidth)) };
}

/** Score, tier, precision and interval of the parts under a fitted model (the fit compares models on the same parts). */
export function confidenceOf(
  parts: ConfidenceParts,
  model: FittedConfidence = FITTED_MODEL.confidence,
): { score: number; tier: ConfidenceTier; precision: number; move: number; interval: { low: number; high: number } } {
  const move = expectedMoveOf(parts.confirmedSpread, parts.corroboration, model);
  const precision = clamp((PRECISION_PER_EXPECTED_MOVE * parts.margin) / move, 0, 1);
  let score = CONFIDENCE_WEIGHTS.coverage * parts.coverage + CONFIDENCE_WEIGHTS.freshness * parts.freshness + CONFIDENCE_WEIGHTS.precision * precision;
  if (parts.multiBuilding) score *= MULTI_BUILDING_FACTOR;
  if (parts.lowest) score = Math.min(score, INSUFFICIENT_MAX_SCORE);
  score = round2(clamp(score, 0, 1));
  const tier = confidenceTierOf(score, parts.lowest);
  return { score, tier, precision, move, interval: intervalOf(parts.total, model.interval_multipliers[tier] * move) };
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
  const { parts, stale } = confidencePartsOf(input, features, evidence);
  const { score, tier, precision, interval } = confidenceOf(parts);

  const flags: string[] = [];
  for (const limit of evidence.limits) flags.push(limit.flag);
  if (features.confirmed_records === 0) flags.push('no-confirmed-records');
  if (features.units <= 5 && (dataQuality === 'sparse' || dataQuality === 'minimal')) flags.push('sparse-data-small-building');
  if (stale.length > 0) {
    flags.push('stale-source');
    for (const key of [...new Set(stale)].sort()) flags.push(`stale-source:${key}`);
  }
  if (parts.multiBuilding) flags.push('multi-building-lot');
  if (features.registration_status === 'missing') flags.push('no-registration');
  if (features.has_complaints && !features.has_enforcement_records) flags.push('complaints-only');
  if (features.units >= 3 && !input.building.in_hpd_jurisdiction) flags.push('no-hpd-coverage');
  if (input.building.residential_units === 0 && input.building.hpd_legal_units === null) flags.push('no-unit-count');

  return {
    score,
    tier,
    flags,
    dimensions: { coverage: round2(parts.coverage), freshness: round2(parts.freshness), corroboration: round2(parts.corroboration), precision: round2(precision) },
    interval,
    reason: evidence.limits.length > 0 ? evidence.limits.map((limit) => limit.reason).join(' ') : null,
    primary_sources: primarySourcesOf(input, features),
    active_families: activeFamiliesOf(features),
  };
}

/** The parts of a building's confidence (ConfidenceParts) and the stale sources of the families considered. */
export function confidencePartsOf(input: BuildingInput, features: BuildingFeatures, evidence: ConfidenceEvidence): { parts: ConfidenceParts; stale: SourceKey[] } {
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
  return {
    parts: {
      coverage,
      freshness: freshnessSum / expected.length,
      corroboration: corroborationOf(evidence.confirmedFeatures),
      total: evidence.total,
      margin: gradeMarginOf(evidence.total, evidence.confirmedTotal),
      confirmedSpread: evidence.confirmedSpread,
      multiBuilding: (input.building.num_buildings ?? 1) > 1,
      lowest: evidence.limits.length > 0 || features.confirmed_records === 0,
    },
    stale,
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
