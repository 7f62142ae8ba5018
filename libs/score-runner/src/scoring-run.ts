import type { Pool } from 'pg';
import { CopyWriter } from '@bhis/db';
import { COMPONENT_KEYS, SCORER_ID } from '@bhis/domain';
import {
  buildPeerDistribution,
  BuildingScore,
  healthScoreFromDistribution,
  KNOWN_LIMIT_RULES,
  scoreBuilding,
  SOURCE_KEYS,
  SourceFreshnessMap,
  SourceKey,
} from '@bhis/scoring';
import { buildingDocumentText, countsOf, HEALTH_PLACEHOLDER } from './building-document';
import { buildingInput, histogramByBbl, RunContext } from './building-input';
import { areaComplaintPropensity, ChunkFeatures, readChunk } from './feature-queries';

export interface ScoringRequest {
  runId: string;
  kind: 'full' | 'incremental';
  asOf: string;
  /** Score only these (incremental); otherwise the buildings marked dirty by ingest. */
  bbls?: string[];
  /** False for backfill: write history points only, leave the current scores alone. */
  writeCurrent: boolean;
  chunkSize?: number;
  onProgress?: (progress: { scored: number; total: number }) => void;
}

export interface ScoringCounts {
  buildings: number;
  failed: number;
  failures: { bbl: string; error: string }[];
  crossings: number;
  grades: Record<string, number>;
  as_of: string;
  kind: 'full' | 'incremental';
  write_current: boolean;
}

/** Tolerated share of buildings that fail to score before the whole run is failed. */
const MAX_FAILED_SHARE = 0.01;

function stagingNames(runId: string) {
  const id = runId.replace(/-/g, '');
  return { scores: `scoring_stg_${id}`, health: `scoring_health_${id}` };
}

async function sourceFreshness(pool: Pool): Promise<SourceFreshnessMap> {
  const { rows } = await pool.query<{ key: string; last_refreshed_at: Date | null; latest_record_date: string | null; cadence: string }>(
    `SELECT key, last_refreshed_at, to_char(latest_record_date, 'YYYY-MM-DD') AS latest_record_date, cadence FROM sources`,
  );
  const known = new Set<string>(SOURCE_KEYS);
  const map: SourceFreshnessMap = {};
  for (const r of rows) {
    if (!known.has(r.key)) continue;
    map[r.key as SourceKey] = { last_refreshed_at: r.last_refreshed_at?.toISOString() ?? null, latest_record_date: r.latest_record_date, cadence: r.cadence };
  }
  return map;
}

/** The BBLs a run scores, in order, chunk by chunk (keyset pagination). */
async function nextTargets(pool: Pool, request: ScoringRequest, startedAt: string, after: string, limit: number): Promise<string[]> {
  if (request.bbls) {
    const { rows } = await pool.query<{ bbl: string }>(
      `SELECT bbl FROM buildings WHERE bbl = ANY($1::char(10)[]) AND bbl > $2 ORDER BY bbl LIMIT $3`,
      [request.bbls, after, limit],
    );
    return rows.map((r) => r.bbl);
  }
  const sql =
    request.kind === 'full'
      ? `SELECT bbl FROM buildings WHERE bbl > $1 ORDER BY bbl LIMIT $2`
      : `SELECT d.bbl FROM dirty_buildings d JOIN buildings b ON b.bbl = d.bbl
          WHERE d.marked_at <= $3::timestamptz AND d.bbl > $1 ORDER BY d.bbl LIMIT $2`;
  const values = request.kind === 'full' ? [after, limit] : [after, limit, startedAt];
  const { rows } = await pool.query<{ bbl: string }>(sql, values);
  return rows.map((r) => r.bbl);
}

async function countTargets(pool: Pool, request: ScoringRequest, startedAt: string): Promise<number> {
  if (request.bbls) return request.bbls.length;
  const { rows } = await pool.query<{ n: number }>(
    request.kind === 'full'
      ? `SELECT count(*)::int AS n FROM buildings`
      : `SELECT count(*)::int AS n FROM dirty_buildings WHERE marked_at <= $1::timestamptz`,
    request.kind === 'full' ? [] : [startedAt],
  );
  return rows[0].n;
}

/**
 * One scoring run: set-based feature extraction chunk by chunk (the next chunk is read while the
 * current one is scored), scores and documents staged with COPY, a peer pass for the health
 * scores, then one transaction that switches in the new scores, appends the history and records
 * the grade crossings. Until that commit, readers see the previous run; a killed run is redone.
 */
export async function runScoring(pool: Pool, request: ScoringRequest): Promise<ScoringCounts> {
  const chunkSize = request.chunkSize ?? 2000;
  const names = stagingNames(request.runId);
  // as text: a JS Date would drop the microseconds and miss buildings marked in the same millisecond
  const startedAt = (await pool.query<{ now: string }>('SELECT now()::text AS now')).rows[0].now;
  const run: RunContext = {
    asOf: request.asOf,
    sources: await sourceFreshness(pool),
    propensityByZip: await areaComplaintPropensity(pool, request.asOf),
  };
  const total = await countTargets(pool, request, startedAt);

  const scores = await CopyWriter.open(pool, names.scores, async (client) => {
    await client.query(`DROP TABLE IF EXISTS ${names.scores}`);
    await client.query(`CREATE UNLOGGED TABLE ${names.scores} (
      bbl char(10) PRIMARY KEY, peer_group text NOT NULL, total_score smallint NOT NULL, grade char(1) NOT NULL,
      label text NOT NULL, flags text[] NOT NULL, components json NOT NULL, component_scores json NOT NULL,
      counts json NOT NULL, confidence json NOT NULL, explanation json NOT NULL, document text NOT NULL, quiet text)`);
  });
  const counts: ScoringCounts = {
    buildings: 0,
    failed: 0,
    failures: [],
    crossings: 0,
    grades: {},
    as_of: request.asOf,
    kind: request.kind,
    write_current: request.writeCurrent,
  };
  const scoredBbls: string[] = [];
  const peerGroups: string[] = [];
  const totals: number[] = [];
  const inPeerStatistics: boolean[] = [];

  try {
    const fetchChunk = async (after: string): Promise<{ bbls: string[]; features: ChunkFeatures } | null> => {
      const bbls = await nextTargets(pool, request, startedAt, after, chunkSize);
      if (bbls.length === 0) return null;
      return { bbls, features: await readChunk(pool, bbls, request.asOf) };
    };
    let pending = fetchChunk('');
    for (;;) {
      const chunk = await pending;
      if (!chunk) break;
      pending = fetchChunk(chunk.bbls[chunk.bbls.length - 1]);
      const histograms = histogramByBbl(chunk.features.histogram);
      for (const facts of chunk.features.facts) {
        try {
          const histogram = histograms.get(facts.bbl) ?? [];
          const score = scoreBuilding(buildingInput(facts, histogram, chunk.features, run));
          const buildingCounts = countsOf(histogram);
          const componentScores = Object.fromEntries(COMPONENT_KEYS.map((k) => [k, score.components[k].score]));
          await scores.write([
            facts.bbl, score.peer_group, score.total_score, score.grade, score.label, `{${score.flags.map((f) => `"${f}"`).join(',')}}`,
            score.components, componentScores, buildingCounts, score.confidence, score.explanation,
            buildingDocumentText(facts, score, buildingCounts), monitorQuietOf(score),
          ]);
          scoredBbls.push(facts.bbl);
          inPeerStatistics.push(!hasKnownLimit(score));
          peerGroups.push(score.peer_group);
          totals.push(score.total_score);
          counts.grades[score.grade] = (counts.grades[score.grade] ?? 0) + 1;
        } catch (error) {
          counts.failed += 1;
          if (counts.failures.length < 10) counts.failures.push({ bbl: facts.bbl, error: error instanceof Error ? error.message : String(error) });
        }
      }
      request.onProgress?.({ scored: scoredBbls.length, total });
    }
    await scores.close();
  } catch (error) {
    scores.abort(error as Error);
    await dropStaging(pool, names);
    throw error;
  }
  counts.buildings = scoredBbls.length;
  if (counts.failed > Math.max(1, MAX_FAILED_SHARE * (counts.buildings + counts.failed))) {
    await dropStaging(pool, names);
    throw new Error(`${counts.failed} buildings failed to score (first: ${counts.failures[0]?.bbl}: ${counts.failures[0]?.error})`);
  }

  // peer pass: health scores against the run's distribution (plus the unchanged scores, when incremental)
  const byGroup = new Map<string, number[]>();
  const add = (group: string, value: number) => {
    const list = byGroup.get(group) ?? [];
    list.push(value);
    byGroup.set(group, list);
  };
  // buildings the model cannot know (public housing, unreliable unit counts) are ranked, but never ranked against
  scoredBbls.forEach((_, i) => {
    if (inPeerStatistics[i]) add(peerGroups[i], totals[i]);
  });
  if (request.kind === 'incremental' && request.writeCurrent) {
    const others = await pool.query<{ peer_group: string; total_score: number }>(
      `SELECT peer_group, total_score FROM building_scores
        WHERE NOT (bbl = ANY($1::char(10)[])) AND NOT (flags && $2::text[])`,
      [scoredBbls, KNOWN_LIMIT_FLAGS],
    );
    for (const r of others.rows) add(r.peer_group, r.total_score);
  }
  const distribution = buildPeerDistribution(byGroup);
  const health = await CopyWriter.open(pool, names.health, async (client) => {
    await client.query(`DROP TABLE IF EXISTS ${names.health}`);
    await client.query(`CREATE UNLOGGED TABLE ${names.health} (bbl char(10) PRIMARY KEY, health_score smallint NOT NULL)`);
  });
  try {
    for (let i = 0; i < scoredBbls.length; i++) {
      await health.write([scoredBbls[i], healthScoreFromDistribution(distribution, peerGroups[i], totals[i])]);
    }
    await health.close();
  } catch (error) {
    health.abort(error as Error);
    await dropStaging(pool, names);
    throw error;
  }

  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    if (request.writeCurrent) {
      const crossings = await client.query(
        `INSERT INTO grade_crossings (run_id, bbl, as_of, scorer_id, previous_grade, previous_score, current_grade, current_score,
                                      quiet_reason)
         SELECT $1, s.bbl, $2, $3, b.grade, b.total_score, s.grade, s.total_score,
                -- a change of scorer version is the model's, not the building's; a change with a stale source and
                -- no new record since the previous score is the staleness alone
                CASE WHEN b.scorer_id <> $3 THEN 'scorer-change'
                     WHEN s.quiet = 'stale-source'
                     THEN CASE WHEN EXISTS (SELECT 1 FROM events e WHERE e.bbl = s.bbl AND e.occurred_on > b.as_of AND e.occurred_on <= $2::date)
                               THEN NULL ELSE 'stale-source' END
                     ELSE s.quiet END
           FROM ${names.scores} s JOIN building_scores b ON b.bbl = s.bbl
          WHERE b.grade <> s.grade
         ON CONFLICT (run_id, bbl) DO NOTHING`,
        [request.runId, request.asOf, SCORER_ID],
      );
      counts.crossings = crossings.rowCount ?? 0;
      await client.query(
        `INSERT INTO building_scores AS b (bbl, run_id, as_of, scorer_id, total_score, health_score, grade, label, peer_group,
                                           components, flags, scores, counts, confidence, explanation, document, updated_at)
         SELECT s.bbl, $1, $2, $3, s.total_score, h.health_score, s.grade, s.label, s.peer_group, s.components::jsonb, s.flags,
                (replace(s.document, '${HEALTH_PLACEHOLDER}', h.health_score::text)::jsonb) -> 'scores',
                s.counts::jsonb, s.confidence::jsonb, s.explanation,
                replace(s.document, '${HEALTH_PLACEHOLDER}', h.health_score::text)::json, now()
           FROM ${names.scores} s JOIN ${names.health} h ON h.bbl = s.bbl
         ON CONFLICT (bbl) DO UPDATE SET run_id = EXCLUDED.run_id, as_of = EXCLUDED.as_of, scorer_id = EXCLUDED.scorer_id,
           total_score = EXCLUDED.total_score, health_score = EXCLUDED.health_score, grade = EXCLUDED.grade,
           label = EXCLUDED.label, peer_group = EXCLUDED.peer_group, components = EXCLUDED.components, flags = EXCLUDED.flags,
           scores = EXCLUDED.scores, counts = EXCLUDED.counts, confidence = EXCLUDED.confidence,
           explanation = EXCLUDED.explanation, document = EXCLUDED.document, updated_at = now()`,
        [request.runId, request.asOf, SCORER_ID],
      );
      if (request.bbls) {
        await client.query(`DELETE FROM dirty_buildings WHERE marked_at <= $1::timestamptz AND bbl = ANY($2::char(10)[])`, [startedAt, request.bbls]);
      } else {
        await client.query(`DELETE FROM dirty_buildings WHERE marked_at <= $1::timestamptz`, [startedAt]);
      }
    }
    await client.query(
      `INSERT INTO score_history (bbl, as_of, scorer_id, run_id, total_score, health_score, grade, components)
       SELECT s.bbl, $2, $3, $1, s.total_score, h.health_score, s.grade, s.component_scores::jsonb
         FROM ${names.scores} s JOIN ${names.health} h ON h.bbl = s.bbl
       ON CONFLICT (bbl, as_of, scorer_id) DO UPDATE SET run_id = EXCLUDED.run_id, total_score = EXCLUDED.total_score,
         health_score = EXCLUDED.health_score, grade = EXCLUDED.grade, components = EXCLUDED.components, created_at = now()`,
      [request.runId, request.asOf, SCORER_ID],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
    await dropStaging(pool, names);
  }
  return counts;
}

const KNOWN_LIMIT_FLAGS = KNOWN_LIMIT_RULES.map((rule) => rule.key);

function hasKnownLimit(score: BuildingScore): boolean {
  return score.flags.some((flag) => (KNOWN_LIMIT_FLAGS as string[]).includes(flag));
}

/**
 * Why monitors should not hear of this building's grade change: the model cannot know it (monitors hear
 * of those only when they ask), or a source is stale (quiet when nothing new was recorded since).
 */
function monitorQuietOf(score: BuildingScore): string | null {
  const limit = score.flags.find((flag) => (KNOWN_LIMIT_FLAGS as string[]).includes(flag));
  if (limit !== undefined) return limit;
  return score.confidence.flags.includes('stale-source') ? 'stale-source' : null;
}

async function dropStaging(pool: Pool, names: { scores: string; health: string }): Promise<void> {
  await pool.query(`DROP TABLE IF EXISTS ${names.scores}`).catch(() => undefined);
  await pool.query(`DROP TABLE IF EXISTS ${names.health}`).catch(() => undefined);
}
