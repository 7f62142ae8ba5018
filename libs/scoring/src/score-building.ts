import { COMPONENT_KEYS, ComponentKey, Grade, SCORER_ID } from '@bhis/domain';
import { scoreComponents } from './component-scores';
import { Confidence, activeFamiliesOf, assessConfidence } from './confidence';
import { DataQuality, dataQualityOf } from './data-quality';
import { Explanation, SignalExplanation } from './explanation';
import { BuildingFeatures, COMPLAINT_TYPES, deriveFeatures } from './features';
import { flagsOf } from './flags';
import { GRADE_LABELS, GradeLabel, gradeOf, maxScoreOf, minScoreOf, UNCERTAIN_LABEL } from './grades';
import { BuildingInput } from './input';
import { KnownLimit, knownLimitsOf } from './known-limits';
import { PeerGroup, peerGroupOf } from './peer-groups';
import { PublishedRuleChecks, publishedRuleChecks } from './public-anchors';
import { accumulateSignals } from './signal-engine';
import { ScoreAdjustment } from './explanation';
import { applyAnchors, combinedLogHealth, totalOfLogHealth } from './total-score';

export interface ComponentScore {
  /** 0-100, one decimal; higher is more distressed. */
  score: number;
  grade: Grade;
}

/** Everything a scoring run stores for a building except health_score, which needs the peer pass. */
export interface BuildingScore {
  bbl: string;
  as_of: string;
  scorer_id: typeof SCORER_ID;
  /** 0-100 integer; higher is more distressed. */
  total_score: number;
  grade: Grade;
  label: GradeLabel;
  peer_group: PeerGroup;
  data_quality: DataQuality;
  components: Record<ComponentKey, ComponentScore>;
  flags: string[];
  confidence: Confidence;
  explanation: Explanation;
  /** The published AEP, UCP and Watchlist rules with the figures behind each (flags *-criteria-met). */
  published_rules: PublishedRuleChecks;
}

/** Where the model cannot know, the total is held between these grades: neither A nor F can be claimed. */
export const KNOWN_LIMIT_GRADES = { from: 'B', to: 'D' } as const;

/** The combined log-health before anchors with the counts of confirmed records spread (accumulateSignals). */
function rawLogHealth(input: BuildingInput, features: BuildingFeatures, spread: -1 | 1): number {
  const results = scoreComponents(input, features, accumulateSignals(input.histogram, spread), false);
  const scores = {} as Record<ComponentKey, number>;
  for (const key of COMPONENT_KEYS) scores[key] = results[key].score;
  return combinedLogHealth(scores, features.units);
}

function holdWithinLimits(total: number, limits: readonly KnownLimit[]): { total: number; adjustment: ScoreAdjustment | null } {
  if (limits.length === 0) return { total, adjustment: null };
  const held = Math.min(Math.max(total, minScoreOf(KNOWN_LIMIT_GRADES.from)), maxScoreOf(KNOWN_LIMIT_GRADES.to));
  if (held === total) return { total, adjustment: null };
  return {
    total: held,
    adjustment: {
      rule: 'known-limit-hold',
      description: `The model cannot know (${limits.map((l) => l.flag).join(', ')}): the total is held between the bottom of grade ${KNOWN_LIMIT_GRADES.from} and the top of grade ${KNOWN_LIMIT_GRADES.to}.`,
      from: total,
      to: held,
    },
  };
}

/** Scores one building. Pure and deterministic: the same input always gives the same output. */
export function scoreBuilding(input: BuildingInput): BuildingScore {
  const features = deriveFeatures(input);
  const totals = accumulateSignals(input.histogram);
  const results = scoreComponents(input, features, totals);

  const components = {} as Record<ComponentKey, ComponentScore>;
  const explained = {} as Record<ComponentKey, SignalExplanation[]>;
  const scores = {} as Record<ComponentKey, number>;
  for (const key of COMPONENT_KEYS) {
    const result = results[key];
    components[key] = { score: result.score, grade: result.grade };
    explained[key] = result.explanation;
    scores[key] = result.score;
  }
  const rawHealth = combinedLogHealth(scores, features.units);
  const raw = totalOfLogHealth(rawHealth);
  const anchored = applyAnchors(raw, features);
  const limits = knownLimitsOf(input, features);
  const { total, adjustment } = holdWithinLimits(anchored.total, limits);
  const adjustments = adjustment === null ? anchored.adjustments : [...anchored.adjustments, adjustment];
  const grade = gradeOf(total);
  const dataQuality = dataQualityOf(activeFamiliesOf(features), features.total_events);

  const hasConfirmed = features.confirmed_records > 0;
  const lowHealth = hasConfirmed ? rawLogHealth(input, features, -1) : rawHealth;
  const highHealth = hasConfirmed ? rawLogHealth(input, features, 1) : rawHealth;
  const low = totalOfLogHealth(lowHealth);
  const high = totalOfLogHealth(highHealth);
  // the precision of the confirmed records alone: a tenant report shares components and caps with them,
  // so on the whole history one new complaint could narrow the spread and raise confidence
  const confirmedOnly = input.histogram.some((row) => COMPLAINT_TYPES.has(row.event_type))
    ? { ...input, histogram: input.histogram.filter((row) => !COMPLAINT_TYPES.has(row.event_type)) }
    : null;
  const confirmedLow = confirmedOnly === null || !hasConfirmed ? lowHealth : rawLogHealth(confirmedOnly, features, -1);
  const confirmedHigh = confirmedOnly === null || !hasConfirmed ? highHealth : rawLogHealth(confirmedOnly, features, 1);
  const logHealthSpread = (confirmedHigh - confirmedLow) / 2;
  const spreadCrossesGrade = gradeOf(Math.round(totalOfLogHealth(confirmedLow))) !== gradeOf(Math.round(totalOfLogHealth(confirmedHigh)));
  const interval = {
    low: Math.round(Math.max(0, Math.min(total, total + low - raw))),
    high: Math.round(Math.min(100, Math.max(total, total + high - raw))),
  };

  const flags = flagsOf(features, input);
  for (const limit of limits) flags.push(limit.flag);

  return {
    bbl: input.building.bbl,
    as_of: input.as_of,
    scorer_id: SCORER_ID,
    total_score: total,
    grade,
    label: limits.length > 0 ? UNCERTAIN_LABEL : GRADE_LABELS[grade],
    peer_group: peerGroupOf(features.units, input.building.year_built, input.building.building_class),
    data_quality: dataQuality,
    components,
    flags,
    confidence: assessConfidence(input, features, dataQuality, { interval, logHealthSpread, spreadCrossesGrade, limits }),
    explanation: { components: explained, adjustments },
    published_rules: publishedRuleChecks(features),
  };
}
