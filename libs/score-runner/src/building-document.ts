import { buildingDocument, type BuildingCounts, type DocumentFacts, type BuildingScore } from '@bhis/scoring';

/** Stands for the health score in a staged document until the run's peer pass has computed it. */
const HEALTH_PENDING = '__health_score__';
const HEALTH_PLACEHOLDER = JSON.stringify(HEALTH_PENDING);

/**
 * The document as a run stages it, as JSON text: the health score is known only after the run's peer
 * pass, so it stands as a placeholder until `documentWithHealthSql` fills it in at switch-in (text,
 * not jsonb, so the field order of the contract is kept).
 */
export function buildingDocumentText(facts: DocumentFacts, score: BuildingScore, counts: BuildingCounts): string {
  return JSON.stringify(buildingDocument(facts, score, counts, HEALTH_PENDING));
}

/** SQL of the final document (json) from a staged document and its health score column. */
export function documentWithHealthSql(stagedDocument: string, healthScore: string): string {
  return `replace(${stagedDocument}, '${HEALTH_PLACEHOLDER}', ${healthScore}::text)::json`;
}
