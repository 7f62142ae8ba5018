import type { Pool } from 'pg';

export interface ScoresFingerprint {
  buildingScores: number;
  buildingScoresDigest: string;
  history: number;
  historyDigest: string;
  crossings: number;
  crossingsDigest: string;
}

/** building_scores, score_history and grade_crossings as comparable digests (run ids and timestamps left out). */
export async function scoresFingerprint(pool: Pool): Promise<ScoresFingerprint> {
  const digest = async (sql: string): Promise<{ n: number; digest: string }> => {
    const { rows } = await pool.query<{ n: number; digest: string | null }>(sql);
    return { n: rows[0]?.n ?? 0, digest: rows[0]?.digest ?? '' };
  };
  const scores = await digest(
    `SELECT count(*)::int AS n, md5(string_agg((to_jsonb(b) - 'run_id' - 'updated_at')::text, ',' ORDER BY bbl)) AS digest FROM building_scores b`,
  );
  const history = await digest(
    `SELECT count(*)::int AS n, md5(string_agg((to_jsonb(h) - 'run_id' - 'created_at')::text, ',' ORDER BY bbl, as_of, scorer_id)) AS digest FROM score_history h`,
  );
  const crossings = await digest(
    `SELECT count(*)::int AS n, md5(string_agg((to_jsonb(g) - 'id' - 'run_id' - 'created_at')::text, ',' ORDER BY bbl, as_of)) AS digest FROM grade_crossings g`,
  );
  return {
    buildingScores: scores.n,
    buildingScoresDigest: scores.digest,
    history: history.n,
    historyDigest: history.digest,
    crossings: crossings.n,
    crossingsDigest: crossings.digest,
  };
}
