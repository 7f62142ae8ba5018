import { COMPONENT_KEYS, ComponentKey, Grade, SCORER_ID } from '@bhis/domain';
import { scoreComponents } from './component-scores';
import { Confidence, activeFamiliesOf, assessConfidence } from './confidence';
import { DataQuality, dataQualityOf } from './data-quality';
import { Explanation, SignalExplanation } from './explanation';
import { deriveFeatures } from './features';
import { flagsOf } from './flags';
import { GRADE_LABELS, GradeLabel, gradeOf } from './grades';
import { BuildingInput } from './input';
import { PeerGroup, peerGroupOf } from './peer-groups';
import { accumulateSignals } from './signal-engine';
import { applyAnchors, combineComponents } from './total-score';

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
}

/** The `scores` object of a building (interface spec 2.3), in the spec's field order. */
export interface ScoresDocument {
  total_score: number;
  health_score: number;
  grade: Grade;
  label: GradeLabel;
  scorer_id: typeof SCORER_ID;
  peer_group: PeerGroup;
  data_quality: DataQuality;
  components: Record<ComponentKey, ComponentScore>;
  flags: string[];
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
  const { total, adjustments } = applyAnchors(combineComponents(scores), features);
  const grade = gradeOf(total);
  const dataQuality = dataQualityOf(activeFamiliesOf(features), features.total_events);

  return {
    bbl: input.building.bbl,
    as_of: input.as_of,
    scorer_id: SCORER_ID,
    total_score: total,
    grade,
    label: GRADE_LABELS[grade],
    peer_group: peerGroupOf(features.units, input.building.year_built, input.building.building_class),
    data_quality: dataQuality,
    components,
    flags: flagsOf(features, input),
    confidence: assessConfidence(input, features, dataQuality),
    explanation: { components: explained, adjustments },
  };
}

export function scoresDocument(score: BuildingScore, healthScore: number): ScoresDocument {
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
