import type { Pool, PoolClient } from 'pg';
import { CopyWriter, inTransaction, SETTLED_BOUND_SQL, settledHorizon } from '@bhis/db';
import { COMPONENT_KEYS, SCORER_ID } from '@bhis/domain';
import {
  buildPeerDistribution,
  BuildingScore,
  countsOf,
  healthScoreFromDistribution,
  KNOWN_LIMIT_RULES,
  PeerDistribution,
  scoreBuilding,
  SourceFreshnessMap,
} from '@bhis/scoring';
import { isSourceKey } from '@bhis/sources';
import { StagedBuildingDocument, stagedBuildingDocument, withHealthScore } from './building-document';
import { buildingInput, histogramByBbl, RunContext } from './building-input';
import { areaComplaintPropensity, ChunkFeatures, readChunk } from './feature-queries';
import type { ScoringCounts } from '@bhis/runs';

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

/** Chunks whose features are read while the current one is scored (docs/benchmarks.json, notes: scoring waits on Postgres). */
const READ_AHEAD = 2;

/** Tolerated share of buildings that fail to score before the whole run is failed. */
const MAX_FAILED_SHARE = 0.01;

async function sourceFreshness(pool: Pool): Promise<SourceFreshnessMap> {
  const { rows } = await pool.query<{ key: string; last_refreshed_at: Date | null; latest_record_date: string | null; cadence: string; failing_since: Date | null }>(
    `SELECT key, last_refreshed_at, to_char(latest_record_date, 'YYYY-MM-DD') AS latest_record_date, cadence, failing_since FROM sources`,
  );
  const map: SourceFreshnessMap = {};
  for (const r of rows) {
    // a source the database still lists but the registry no longer has (the worker warns at start)
    if (!isSourceKey(r.key)) continue;
    map[r.key] = {
      last_refreshed_at: r.last_refreshed_at?.toISOString() ?? null,
      latest_record_date: r.latest_record_date,
      cadence: r.cadence,
      failing_since: r.failing_since?.toISOString() ?? null,
    };
  }
  return map;
}

/** A slice of the BBL order a part of a run scores: after `after` (exclusive), up to `last` (inclusive; null: no end). */
export interface BblRange {
  after: string;
  last: string | null;
}

const WHOLE_CITY: BblRange = { after: '', last: null };

/** What the targets of a run are: a full run, the buildings marked dirty before `startedAt`, or the given BBLs. */
interface TargetSelection {
  kind: 'full' | 'incremental';
  bbls?: string[];
}

/** The BBLs a run scores, in order, chunk by chunk (keyset pagination), within a range. */
async function nextTargets(pool: Pool, selection: TargetSelection, startedAt: string, after: string, last: string | null, limit: number): Promise<string[]> {
  if (selection.bbls) {
    const { rows } = await pool.query<{ bbl: string }>(
      `SELECT bbl FROM buildings WHERE bbl = ANY($1::char(10)[]) AND bbl > $2 AND ($4::text IS NULL OR bbl <= $4) ORDER BY bbl LIMIT $3`,
      [selection.bbls, after, limit, last],
    );
    return rows.map((r) => r.bbl);
  }
  const sql =
    selection.kind === 'full'
      ? `SELECT bbl FROM buildings WHERE bbl > $1 AND ($3::text IS NULL OR bbl <= $3) ORDER BY bbl LIMIT $2`
      : `SELECT d.bbl FROM dirty_buildings d JOIN buildings b ON b.bbl = d.bbl
          WHERE d.marked_at <= $4::timestamptz AND d.bbl > $1 AND ($3::text IS NULL OR d.bbl <= $3) ORDER BY d.bbl LIMIT $2`;
  const values = selection.kind === 'full' ? [after, limit, last] : [after, limit, last, startedAt];
  const { rows } = await pool.query<{ bbl: string }>(sql, values);
  return rows.map((r) => r.bbl);
}

async function countTargets(pool: Pool, selection: TargetSelection, startedAt: string): Promise<number> {
  if (selection.bbls) return selection.bbls.length;
  const { rows } = await pool.query<{ n: number }>(
    selection.kind === 'full'
      ? `SELECT count(*)::int AS n FROM buildings`
      : `SELECT count(*)::int AS n FROM dirty_buildings WHERE marked_at <= $1::timestamptz`,
    selection.kind === 'full' ? [] : [startedAt],
  );
  return rows[0].n;
}

/** What every part of a run shares: the moment it started (dirty marks up to it are covered) and the context of the model. */
export interface RunStart {
  startedAt: string;
  context: RunContext;
}

/**
 * Reads the run's start: its clock, the sources' freshness, the areas' complaint propensity (counted
 * again by a full run, `recountPropensity`; feature-queries.ts) and, for a run that writes the current
 * scores, the horizon of the settled histories it reads (none for an as-of date past the end of next
 * year, libs/db/src/settled-history.ts; runs of other dates, such as the validation's, read all the
 * events and leave the summaries of the current runs alone).
 */
export async function startRun(pool: Pool, asOf: string, options: { settled: boolean; recountPropensity: boolean }): Promise<RunStart> {
  // as text: a JS Date would drop the microseconds and miss buildings marked in the same millisecond
  const { rows } = await pool.query<{ now: string; settled: boolean }>(`SELECT now()::text AS now, $1::date <= ${SETTLED_BOUND_SQL} AS settled`, [settledHorizon(asOf)]);
  return {
    startedAt: rows[0].now,
    context: {
      asOf,
      sources: await sourceFreshness(pool),
      propensityByZip: await areaComplaintPropensity(pool, asOf, { recount: options.recountPropensity }),
      settledHorizon: options.settled && rows[0].settled ? settledHorizon(asOf) : null,
    },
  };
}

/** What scoring a range left in its staging table. */
export interface ScoredRange {
  buildings: number;
  failed: number;
  failures: { bbl: string; error: string }[];
  grades: Record<string, number>;
}

/**
 * Scores the targets of a range into a staging table of its own (recreated, so a retried range
 * starts over): set-based feature extraction chunk by chunk, the next chunk read while the current
 * one is scored, scores and documents written with COPY.
 */
export async function scoreRange(
  pool: Pool,
  options: { selection: TargetSelection; start: RunStart; range: BblRange; table: string; chunkSize?: number; onChunk?: (scored: number) => void },
): Promise<ScoredRange> {
  const chunkSize = options.chunkSize ?? 2000;
  const { selection, start, range } = options;
  const run = start.context;
  const scores = await CopyWriter.open(pool, options.table, async (client) => {
    await client.query(`DROP TABLE IF EXISTS ${options.table}`);
    await client.query(`CREATE UNLOGGED TABLE ${options.table} (
      bbl char(10) PRIMARY KEY, peer_group text NOT NULL, total_score smallint NOT NULL, grade char(1) NOT NULL,
      label text NOT NULL, flags text[] NOT NULL, components json NOT NULL, component_scores json NOT NULL,
      counts json NOT NULL, confidence json NOT NULL, explanation json NOT NULL, document text NOT NULL, quiet text)`);
  });
  const result: ScoredRange = { buildings: 0, failed: 0, failures: [], grades: {} };
  // the targets of each chunk are listed in order (keyset pagination, a quick index scan) and their
  // features read READ_AHEAD chunks ahead: Postgres takes longer to read a chunk than this process
  // takes to score it, so two reads run at once on the two cores while a chunk is scored
  let targets = nextTargets(pool, selection, start.startedAt, range.after, range.last, chunkSize);
  const readAhead = (): Promise<{ bbls: string[]; features: ChunkFeatures } | null> => {
    const listed = targets;
    targets = listed.then((bbls) => (bbls.length === 0 ? [] : nextTargets(pool, selection, start.startedAt, bbls[bbls.length - 1], range.last, chunkSize)));
    targets.catch(() => undefined);
    const read = listed.then(async (bbls) => (bbls.length === 0 ? null : { bbls, features: await readChunk(pool, bbls, run.asOf, run.settledHorizon) }));
    // a read that fails while an earlier chunk is scored is thrown when its turn comes, not reported unhandled
    read.catch(() => undefined);
    return read;
  };
  const reads = Array.from({ length: READ_AHEAD }, readAhead);
  try {
    for (;;) {
      const chunk = await reads.shift();
      if (!chunk) break;
      reads.push(readAhead());
      const histograms = histogramByBbl(chunk.features.histogram, chunk.features.settled, run.asOf);
      for (const facts of chunk.features.facts) {
        try {
          const histogram = histograms.get(facts.bbl) ?? [];
          const score = scoreBuilding(buildingInput(facts, histogram, chunk.features, run));
          const buildingCounts = countsOf(histogram);
          const componentScores = Object.fromEntries(COMPONENT_KEYS.map((k) => [k, score.components[k].score]));
          await scores.write([
            facts.bbl, score.peer_group, score.total_score, score.grade, score.label, `{${score.flags.map((f) => `"${f}"`).join(',')}}`,
            score.components, componentScores, buildingCounts, score.confidence, score.explanation,
            stagedBuildingDocument(facts, score, buildingCounts), monitorQuietOf(score),
          ]);
          result.buildings += 1;
          result.grades[score.grade] = (result.grades[score.grade] ?? 0) + 1;
        } catch (error) {
          result.failed += 1;
          if (result.failures.length < 10) result.failures.push({ bbl: facts.bbl, error: error instanceof Error ? error.message : String(error) });
        }
      }
      options.onChunk?.(result.buildings);
    }
    await Promise.allSettled(reads);
    await scores.close();
  } catch (error) {
    scores.abort(error as Error);
    await Promise.allSettled(reads);
    await pool.query(`DROP TABLE IF EXISTS ${options.table}`).catch(() => undefined);
    throw error;
  }
  return result;
}

/** The staging tables of a run: one of scores per part (a single-process run has one part), one of health scores. */
export function stagingTables(runId: string, parts = 1): { scores: string[]; health: string } {
  const id = runId.replace(/-/g, '');
  return {
    scores: Array.from({ length: parts }, (_, i) => (parts === 1 ? `scoring_stg_${id}` : `scoring_stg_${id}_p${i}`)),
    health: `scoring_health_${id}`,
  };
}

/** Drops every staging table of a run, whatever its parts. */
export async function dropRunStaging(pool: Pool, runId: string): Promise<void> {
  const id = runId.replace(/-/g, '');
  const { rows } = await pool.query<{ tablename: string }>(
    `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND (tablename LIKE $1 OR tablename = $2)`,
    [`scoring_stg_${id}%`, `scoring_health_${id}`],
  );
  for (const { tablename } of rows) await pool.query(`DROP TABLE IF EXISTS ${tablename}`).catch(() => undefined);
}

/** Adds up what the parts of a run scored (in part order) and fails the run past the tolerated share of failures. */
export function combineRanges(ranges: ScoredRange[]): ScoredRange {
  const total: ScoredRange = { buildings: 0, failed: 0, failures: [], grades: {} };
  for (const range of ranges) {
    total.buildings += range.buildings;
    total.failed += range.failed;
    for (const failure of range.failures) if (total.failures.length < 10) total.failures.push(failure);
    for (const [grade, n] of Object.entries(range.grades)) total.grades[grade] = (total.grades[grade] ?? 0) + n;
  }
  return total;
}

function checkFailures(scored: ScoredRange): void {
  if (scored.failed > Math.max(1, MAX_FAILED_SHARE * (scored.buildings + scored.failed))) {
    throw new Error(`${scored.failed} buildings failed to score (first: ${scored.failures[0]?.bbl}: ${scored.failures[0]?.error})`);
  }
}

export interface SwitchRequest {
  runId: string;
  kind: 'full' | 'incremental';
  asOf: string;
  bbls?: string[];
  writeCurrent: boolean;
  startedAt: string;
  /** The scores staged by the run's parts, in BBL order of their ranges. */
  tables: string[];
  /** Runs inside the switch transaction, before its commit (the run's own record). */
  beforeCommit?: (client: PoolClient, counts: ScoringCounts) => Promise<void>;
}

/**
 * The end of a run, from its staged scores: a peer pass for the health scores (the run's
 * distribution, plus the unchanged scores when incremental), then one transaction that switches in
 * the new scores, appends the history and records the grade crossings. Until that commit, readers
 * see the previous run. The staging tables are dropped when it ends, well or not.
 */
export async function switchInScores(pool: Pool, request: SwitchRequest, scored: ScoredRange): Promise<ScoringCounts> {
  const health = stagingTables(request.runId).health;
  const source = request.tables.length === 1 ? request.tables[0] : `(${request.tables.map((t) => `SELECT * FROM ${t}`).join(' UNION ALL ')})`;
  const counts: ScoringCounts = {
    buildings: scored.buildings,
    failed: scored.failed,
    failures: scored.failures,
    crossings: 0,
    grades: scored.grades,
    as_of: request.asOf,
    kind: request.kind,
    write_current: request.writeCurrent,
  };
  try {
    checkFailures(scored);
    await stageHealthScores(pool, request, source, health);
    await inTransaction(pool, async (client) => {
      const held = request.writeCurrent ? await heldBbls(client, request, source) : [];
      if (request.writeCurrent) counts.crossings = await writeCurrentScores(client, request, source, health, held);
      await appendHistory(client, request, source, health, held);
      await request.beforeCommit?.(client, counts);
    });
  } finally {
    for (const table of [...request.tables, health]) await pool.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
  }
  return counts;
}

/**
 * The peer pass: each staged building's health score within its peer group and, for a run that writes
 * the current scores, its document completed with it, into the run's health table.
 */
async function stageHealthScores(pool: Pool, request: SwitchRequest, source: string, health: string): Promise<void> {
  const distribution = await peerDistribution(pool, request, source);
  const healthWriter = await CopyWriter.open(pool, health, async (client) => {
    await client.query(`DROP TABLE IF EXISTS ${health}`);
    await client.query(`CREATE UNLOGGED TABLE ${health} (bbl char(10) PRIMARY KEY, health_score smallint NOT NULL, document text)`);
  });
  try {
    for (const table of request.tables) {
      for await (const page of stagedPages(pool, table, request.writeCurrent)) {
        for (const row of page) {
          const healthScore = healthScoreFromDistribution(distribution, row.peer_group, row.total_score);
          const document = row.document === null ? null : withHealthScore(JSON.parse(row.document) as StagedBuildingDocument, healthScore);
          await healthWriter.write([row.bbl, healthScore, document]);
        }
      }
    }
    await healthWriter.close();
  } catch (error) {
    healthWriter.abort(error as Error);
    throw error;
  }
}

/** The run's distribution of total scores by peer group (with the unchanged scores when incremental). */
async function peerDistribution(pool: Pool, request: SwitchRequest, source: string): Promise<PeerDistribution> {
  // in BBL order as the buildings were scored; buildings the model cannot know (public housing,
  // unreliable unit counts) are ranked, but never ranked against
  const staged = await pool.query<{ bbl: string; peer_group: string; total_score: number; in_peers: boolean }>(
    `SELECT bbl, peer_group, total_score, NOT (flags && $1::text[]) AS in_peers FROM ${source} s ORDER BY bbl`,
    [KNOWN_LIMIT_FLAGS],
  );
  const byGroup = new Map<string, number[]>();
  const add = (group: string, value: number) => {
    const list = byGroup.get(group) ?? [];
    list.push(value);
    byGroup.set(group, list);
  };
  for (const r of staged.rows) if (r.in_peers) add(r.peer_group, r.total_score);
  if (request.kind === 'incremental' && request.writeCurrent) {
    const others = await pool.query<{ peer_group: string; total_score: number }>(
      `SELECT peer_group, total_score FROM building_scores
        WHERE NOT (bbl = ANY($1::char(10)[])) AND NOT (flags && $2::text[])`,
      [staged.rows.map((r) => r.bbl), KNOWN_LIMIT_FLAGS],
    );
    for (const r of others.rows) add(r.peer_group, r.total_score);
  }
  return buildPeerDistribution(byGroup);
}

/** What the peer pass reads of a staged table, page by page in BBL order; the document only when asked for. */
async function* stagedPages(
  pool: Pool,
  table: string,
  withDocuments: boolean,
): AsyncGenerator<{ bbl: string; peer_group: string; total_score: number; document: string | null }[]> {
  let after = '';
  for (;;) {
    const { rows } = await pool.query<{ bbl: string; peer_group: string; total_score: number; document: string | null }>(
      `SELECT bbl, peer_group, total_score, ${withDocuments ? 'document' : 'NULL::text AS document'}
         FROM ${table} WHERE bbl > $1 ORDER BY bbl LIMIT ${STAGED_PAGE_ROWS}`,
      [after],
    );
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1].bbl;
  }
}

/**
 * The buildings whose current score is held: a source of the families the score reads was loaded and is
 * now stale (its `stale-source:<key>` confidence flag, the rule of GET /api/v1/sources) and nothing was recorded for the
 * building since the score it has, by the same scorer. Rescoring them now would move their grade only
 * because the feed stopped (its records age while no new one arrives), so they keep their last good
 * score until the feed returns; the first run after it compares with that score, so a monitor hears the
 * net change since what it was last told, never a change back from one it was not.
 */
async function heldBbls(client: PoolClient, request: SwitchRequest, source: string): Promise<string[]> {
  const { rows } = await client.query<{ bbl: string }>(
    `SELECT s.bbl FROM ${source} s JOIN building_scores b ON b.bbl = s.bbl
      WHERE b.scorer_id = $2
        -- a source that was loaded and has fallen behind (one never loaded moves no score)
        AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(s.confidence::jsonb -> 'flags') f
                      JOIN sources src ON f = 'stale-source:' || src.key WHERE src.last_refreshed_at IS NOT NULL)
        AND NOT EXISTS (SELECT 1 FROM events e WHERE e.bbl = s.bbl AND e.occurred_on > b.as_of AND e.occurred_on <= $1::date)`,
    [request.asOf, SCORER_ID],
  );
  return rows.map((r) => r.bbl);
}

/** Grade crossings against the current scores, then the new scores switched in (the held ones kept); returns the crossings. */
async function writeCurrentScores(client: PoolClient, request: SwitchRequest, source: string, health: string, held: readonly string[]): Promise<number> {
  const crossings = await client.query(
    `INSERT INTO grade_crossings (run_id, bbl, as_of, scorer_id, previous_grade, previous_score, current_grade, current_score,
                                  quiet_reason)
     SELECT $1, s.bbl, $2, $3, b.grade, b.total_score, s.grade, s.total_score,
            -- a change of scorer version is the model's, not the building's; a stale source with a new
            -- record since the previous score is a real change (without one the score is held)
            CASE WHEN b.scorer_id <> $3 THEN 'scorer-change'
                 WHEN s.quiet = 'stale-source' THEN NULL
                 ELSE s.quiet END
       FROM ${source} s JOIN building_scores b ON b.bbl = s.bbl
      WHERE b.grade <> s.grade AND NOT (s.bbl = ANY($4::char(10)[]))
     ON CONFLICT (run_id, bbl) DO NOTHING`,
    [request.runId, request.asOf, SCORER_ID, held],
  );
  await client.query(
    `INSERT INTO building_scores AS b (bbl, run_id, as_of, scorer_id, total_score, health_score, grade, label, peer_group,
                                       components, flags, scores, counts, confidence, explanation, document, updated_at)
     SELECT s.bbl, $1, $2, $3, s.total_score, h.health_score, s.grade, s.label, s.peer_group, s.components::jsonb, s.flags,
            h.document::jsonb -> 'scores', s.counts::jsonb, s.confidence::jsonb, s.explanation, h.document::json, now()
       FROM ${source} s JOIN ${health} h ON h.bbl = s.bbl
      WHERE NOT (s.bbl = ANY($4::char(10)[]))
     ON CONFLICT (bbl) DO UPDATE SET run_id = EXCLUDED.run_id, as_of = EXCLUDED.as_of, scorer_id = EXCLUDED.scorer_id,
       total_score = EXCLUDED.total_score, health_score = EXCLUDED.health_score, grade = EXCLUDED.grade,
       label = EXCLUDED.label, peer_group = EXCLUDED.peer_group, components = EXCLUDED.components, flags = EXCLUDED.flags,
       scores = EXCLUDED.scores, counts = EXCLUDED.counts, confidence = EXCLUDED.confidence,
       explanation = EXCLUDED.explanation, document = EXCLUDED.document, updated_at = now()`,
    [request.runId, request.asOf, SCORER_ID, held],
  );
  // a held building keeps its score, grade and components, and says what is stale now: its flags and
  // confidence are this run's (the stale-source flags follow the rule of GET /api/v1/sources)
  if (held.length > 0) {
    await client.query(
      `UPDATE building_scores b SET flags = s.flags, confidence = s.confidence::jsonb,
              scores = jsonb_set(b.scores, '{flags}', to_jsonb(s.flags)),
              document = jsonb_set(jsonb_set(b.document::jsonb, '{confidence}', s.confidence::jsonb), '{scores,flags}', to_jsonb(s.flags))::json,
              updated_at = now()
         FROM ${source} s WHERE s.bbl = b.bbl AND b.bbl = ANY($1::char(10)[])`,
      [held],
    );
  }
  if (request.bbls) {
    await client.query(`DELETE FROM dirty_buildings WHERE marked_at <= $1::timestamptz AND bbl = ANY($2::char(10)[])`, [request.startedAt, request.bbls]);
  } else {
    await client.query(`DELETE FROM dirty_buildings WHERE marked_at <= $1::timestamptz`, [request.startedAt]);
  }
  return crossings.rowCount ?? 0;
}

/** One point of each building's history for the run's as-of date; a held building's point is the score it keeps. */
async function appendHistory(client: PoolClient, request: SwitchRequest, source: string, health: string, held: readonly string[]): Promise<void> {
  await client.query(
    `INSERT INTO score_history (bbl, as_of, scorer_id, run_id, total_score, health_score, grade, components)
     SELECT s.bbl, $2::date, $3::text, $1::uuid, s.total_score, h.health_score, s.grade, s.component_scores::jsonb
       FROM ${source} s JOIN ${health} h ON h.bbl = s.bbl
      WHERE NOT (s.bbl = ANY($4::char(10)[]))
     UNION ALL
     SELECT b.bbl, $2::date, $3::text, $1::uuid, b.total_score, b.health_score, b.grade,
            (SELECT jsonb_object_agg(c.key, c.value -> 'score') FROM jsonb_each(b.components) c)
       FROM building_scores b WHERE b.bbl = ANY($4::char(10)[])
     ON CONFLICT (bbl, as_of, scorer_id) DO UPDATE SET run_id = EXCLUDED.run_id, total_score = EXCLUDED.total_score,
       health_score = EXCLUDED.health_score, grade = EXCLUDED.grade, components = EXCLUDED.components, created_at = now()`,
    [request.runId, request.asOf, SCORER_ID, held],
  );
}

/**
 * One scoring run in this process: its targets scored into one staging table, then switched in
 * (switchInScores). Until that commit, readers see the previous run; a killed run is redone.
 * Full runs of the scoring worker are split into parts instead (scoring-parts.ts).
 */
export async function runScoring(pool: Pool, request: ScoringRequest): Promise<ScoringCounts> {
  const start = await startRun(pool, request.asOf, { settled: request.writeCurrent, recountPropensity: request.kind === 'full' });
  const selection: TargetSelection = { kind: request.kind, bbls: request.bbls };
  const total = request.onProgress ? await countTargets(pool, selection, start.startedAt) : 0;
  const [table] = stagingTables(request.runId).scores;
  const scored = await scoreRange(pool, {
    selection,
    start,
    range: WHOLE_CITY,
    table,
    chunkSize: request.chunkSize,
    onChunk: (n) => request.onProgress?.({ scored: n, total }),
  });
  return switchInScores(pool, { ...request, startedAt: start.startedAt, tables: [table] }, scored);
}

const KNOWN_LIMIT_FLAGS = KNOWN_LIMIT_RULES.map((rule) => rule.key);

/** Staged rows the peer pass reads at a time (with their documents, a few MB). */
const STAGED_PAGE_ROWS = 2000;

/**
 * Why monitors should not hear of this building's grade change: the model cannot know it (monitors hear
 * of those only when they ask), or a source is stale (quiet when nothing new was recorded since).
 */
function monitorQuietOf(score: BuildingScore): string | null {
  const limit = score.flags.find((flag) => (KNOWN_LIMIT_FLAGS as string[]).includes(flag));
  if (limit !== undefined) return limit;
  return score.confidence.flags.includes('stale-source') ? 'stale-source' : null;
}
