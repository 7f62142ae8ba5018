import { COMPONENT_KEYS, ComponentKey, Grade, SCORER_ID } from '@bhis/domain';
import { scoreComponents } from './component-scores';
import { Confidence, ConfidenceEvidence, ConfidenceParts, activeFamiliesOf, assessConfidence, confidencePartsOf } from './confidence';
import { DataQuality, dataQualityOf } from './data-quality';
import { Explanation, SignalExplanation } from './explanation';
import { BuildingFeatures, COMPLAINT_TYPES, deriveFeatures } from './features';
import { halfLifeFactorOf } from './fitted-model';
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
function rawLogHealth(input: BuildingInput, features: BuildingFeatures, spread: -1 | 0 | 1): number {
  const factor = halfLifeFactorOf(features.units);
  const results = scoreComponents(input, features, accumulateSignals(input.histogram, spread, factor), false, factor);
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

/**
 * The confirmed records alone (tenant reports left out): their total, anchored and held as the total is,
 * and half its spread with every count moved one Poisson standard deviation down and up. A tenant report
 * shares components and caps with the confirmed records, so these are computed without any, and a new
 * complaint cannot make the grade look surer.
 */
function confirmedEvidence(input: BuildingInput, features: BuildingFeatures, total: number, limits: readonly KnownLimit[]): ConfidenceEvidence {
  const hasComplaints = input.histogram.some((row) => COMPLAINT_TYPES.has(row.event_type));
  const confirmed = hasComplaints ? { ...input, histogram: input.histogram.filter((row) => !COMPLAINT_TYPES.has(row.event_type)) } : input;
  const confirmedFeatures = hasComplaints ? deriveFeatures(confirmed) : features;
  const confirmedTotal = hasComplaints
    ? holdWithinLimits(applyAnchors(totalOfLogHealth(rawLogHealth(confirmed, confirmedFeatures, 0)), confirmedFeatures).total, limits).total
    : total;
  if (confirmedFeatures.confirmed_records === 0) return { total, confirmedTotal, confirmedSpread: 0, confirmedFeatures, limits };
  const low = totalOfLogHealth(rawLogHealth(confirmed, confirmedFeatures, -1));
  const high = totalOfLogHealth(rawLogHealth(confirmed, confirmedFeatures, 1));
  return { total, confirmedTotal, confirmedSpread: (high - low) / 2, confirmedFeatures, limits };
}

/** The parts of a building's confidence (the fit of the confidence's constants reads them). */
export function confidencePartsOfBuilding(input: BuildingInput): ConfidenceParts {
  const features = deriveFeatures(input);
  const score = scoreBuilding(input);
  return confidencePartsOf(input, features, confirmedEvidence(input, features, score.total_score, knownLimitsOf(input, features))).parts;
}

/** Scores one building. Pure and deterministic: the same input always gives the same output. */
export function scoreBuilding(input: BuildingInput): BuildingScore {
  const features = deriveFeatures(input);
  const factor = halfLifeFactorOf(features.units);
  const totals = accumulateSignals(input.histogram, 0, factor);
  const results = scoreComponents(input, features, totals, true, factor);

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

  const flags = flagsOf(features, input);
  for (const limit of limits) flags.push(limit.flag);
  const evidence = confirmedEvidence(input, features, total, limits);
  const confidence = assessConfidence(input, features, dataQuality, evidence);

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
    confidence,
    explanation: { components: explained, adjustments },
    published_rules: publishedRuleChecks(features),
  };
}
