import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { runScoring } from '@bhis/score-runner';
import { NodeProcess, poll, runCliJson } from '@bhis/testing';
import { scoresFingerprint } from './support/fingerprint';
import { TEST_TIMEOUT_MS } from './support/mode';
import { recordResult } from './support/results';
import { CITY_AS_OF, cloneSeededCity, redisPrefix, SeededDatabase } from './support/seeded-city';

/** The log lines of a process group with the pid of the process that wrote them. */
function logLines(output: string): { pid: number; msg: string }[] {
  const lines: { pid: number; msg: string }[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { pid?: number; msg?: string };
      if (typeof entry.pid === 'number' && typeof entry.msg === 'string') lines.push({ pid: entry.pid, msg: entry.msg });
    } catch {
      // a line cut by the kept tail
    }
  }
  return lines;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a scoring app of two processes (SCORING_PROCESSES=2)', () => {
  let city: SeededDatabase;
  let pool: Pool;
  let app: NodeProcess | undefined;

  beforeAll(async () => {
    city = await cloneSeededCity();
    pool = new Pool({ connectionString: city.url, max: 2 });
  }, 600_000);

  afterAll(async () => {
    await app?.kill9();
    await pool?.end();
    await city?.drop();
  }, 120_000);

  it('scores the parts of one run in both processes, replaces a process killed mid-run, ends as one process would, and stops whole', async () => {
    const started = Date.now();
    const env = { DATABASE_URL: city.url, REDIS_PREFIX: redisPrefix(), LOG_LEVEL: 'info', WORKER_LOCK_MS: '2000', SCORING_PROCESSES: '2' };
    app = NodeProcess.app('scoring', env);
    const group = app;
    const workerPids = () => [...new Set(logLines(group.output).filter((l) => l.msg === 'scoring worker started').map((l) => l.pid))];
    await poll('two scoring processes', async () => (workerPids().length >= 2 ? true : null), 60_000);
    const [first, second] = workerPids();
    expect(first).not.toBe(app.pid);
    expect(second).not.toBe(app.pid);

    const queued = await runCliJson<{ run_id: string }>(['score', '--full', '--as-of', CITY_AS_OF, '--json'], env);
    // a process killed once both score parts (4 parts, one at a time each): its part is taken again once its lock expires
    await poll('parts being scored', async () => {
      const running = await pool.query(`SELECT 1 FROM scoring_run_parts WHERE run_id = $1 AND status = 'running'`, [queued.run_id]);
      return (running.rowCount ?? 0) >= 2 ? true : null;
    }, 60_000, 5);
    const victim = first;
    process.kill(victim, 'SIGKILL');
    const atKill = await pool.query<{ status: string }>(`SELECT status FROM scoring_runs WHERE id = $1`, [queued.run_id]);
    expect(atKill.rows[0].status).toBe('running');

    const run = await poll('the run to succeed', async () => {
      const { rows } = await pool.query<{ status: string; buildings: number | null }>(
        `SELECT status, (counts->>'buildings')::int AS buildings FROM scoring_runs WHERE id = $1`,
        [queued.run_id],
      );
      if (rows[0]?.status === 'failed') throw new Error('the run failed');
      return rows[0]?.status === 'succeeded' ? rows[0] : null;
    }, 180_000);
    const buildings = (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM buildings`)).rows[0].n;
    expect(run.buildings).toBe(buildings);

    // the group started a process in place of the killed one; the killed process's part was scored again
    const pids = workerPids();
    expect(pids.length).toBe(3);
    expect(alive(victim)).toBe(false);
    const parts = await pool.query<{ parts: number; scored: number; attempts: number }>(
      `SELECT count(*)::int AS parts, sum(scored)::int AS scored, sum(attempt)::int AS attempts FROM scoring_run_parts WHERE run_id = $1 AND status = 'done'`,
      [queued.run_id],
    );
    expect(parts.rows[0].scored).toBe(buildings);
    expect(parts.rows[0].attempts).toBe(parts.rows[0].parts + 1);
    const scoredBy = new Set(logLines(group.output).filter((l) => /: part \d+ scored$/.test(l.msg)).map((l) => l.pid));
    expect(scoredBy.has(victim)).toBe(false);

    // stopped with SIGTERM, the whole group ends
    await app.stop();
    expect(app.exited).toBe(true);
    await poll('the processes to end', async () => (pids.every((pid) => !alive(pid)) ? true : null), 15_000);

    // the same scores, to the byte, as a single-process run of the same as-of date on the same data
    const split = await scoresFingerprint(pool);
    await runScoring(pool, { runId: randomUUID(), kind: 'full', asOf: CITY_AS_OF, writeCurrent: true });
    expect(await scoresFingerprint(pool)).toEqual(split);

    recordResult('scoring-processes', {
      buildings,
      parts: parts.rows[0].parts,
      processesStarted: pids.length,
      partsScoredByProcesses: scoredBy.size,
      seconds: (Date.now() - started) / 1000,
    });
  }, TEST_TIMEOUT_MS);
});
