import { buildingDocument, type BuildingCounts, type BuildingDocument, type BuildingScore, type DocumentFacts } from '@bhis/scoring';

/** The document as a run stages it: all of it but the health score (null), which only the run's peer pass computes. */
export type StagedBuildingDocument = BuildingDocument<null>;

export function stagedBuildingDocument(facts: DocumentFacts, score: BuildingScore, counts: BuildingCounts): StagedBuildingDocument {
  return buildingDocument(facts, score, counts, null);
}

/** The document as it is stored and served: the staged one with its health score, in the field order of the contract. */
export function withHealthScore(staged: StagedBuildingDocument, healthScore: number): BuildingDocument {
  return { ...staged, scores: { ...staged.scores, health_score: healthScore } };
}
