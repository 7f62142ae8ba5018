import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readdirSync } from 'node:fs';
import { Pool } from 'pg';
import { createKey, RunningApi, startApi } from './support/api';
import { errorCode, send } from './support/http';
import { SETTINGS, TEST_TIMEOUT_MS } from './support/mode';
import { BackgroundProbe, poll } from '@bhis/testing';
import { NodeProcess } from '@bhis/testing';
import { recordResult } from './support/results';
import { runCliJson } from '@bhis/testing';
import { CITY_AS_OF, cloneSeededCity, redisPrefix, SeededDatabase } from './support/seeded-city';

/** The local cluster's version folder (e.g. "15"): the same command CI uses to start it. */
function clusterVersion(): string {
  const versions = readdirSync('/etc/postgresql');
  if (versions.length !== 1 || !versions[0]) throw new Error(`expected one cluster in /etc/postgresql, found ${versions.join(', ')}`);
  return versions[0];
}

function pgIsReady(): boolean {
  try {
    execFileSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432', '-q']);
    return true;
  } catch {
    return false;
  }
}

/** Makes sure the shared cluster is up again, whatever happened. */
async function ensurePostgresUp(): Promise<void> {
  for (let i = 0; i < 60 && !pgIsReady(); i++) {
    if (i === 5) execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', clusterVersion(), 'main', 'start'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 1_000));
  }
  if (!pgIsReady()) throw new Error('Postgres is not back up');
}

// Restarting the shared cluster disturbs everything else on the machine: full form only, never in CI.
(SETTINGS.postgresRestart ? describe : describe.skip)('Postgres restarted under load (full form only)', () => {
  let db: SeededDatabase;
  let pool: Pool;
  let api: RunningApi | undefined;
  let worker: NodeProcess | undefined;

  beforeAll(async () => {
    db = await cloneSeededCity();
    pool = new Pool({ connectionString: db.url, max: 2 });
    pool.on('error', () => undefined); // idle clients are cut by the restart
  }, 600_000);

  afterAll(async () => {
    await ensurePostgresUp();
    await worker?.stop();
    await api?.process.stop();
    await pool?.end();
    await db?.drop();
  }, 180_000);

  it('answers 503 envelopes during the outage, recovers without a restart, and the running job completes', async () => {
    const env = { DATABASE_URL: db.url, REDIS_PREFIX: redisPrefix() };
    const { key } = await createKey(db.url, { rateLimitPerMin: 100_000_000 });
    const bbls = (await pool.query<{ bbl: string }>(`SELECT bbl FROM building_scores ORDER BY bbl LIMIT 50`)).rows.map((r) => r.bbl.trim());
    api = await startApi(env);
    const port = api.port;
    worker = NodeProcess.app('scoring', { ...env, LOG_LEVEL: 'info' });
    await worker.waitFor('scoring worker started');

    let i = 0;
    const probe = new BackgroundProbe(async () => {
      try {
        const res = await send(port, { method: 'GET', path: `/api/v1/buildings/${bbls[i++ % bbls.length]}`, headers: { authorization: `Bearer ${key}` } }, 10_000);
        return { status: res.status, code: errorCode(res.body), at: Date.now() };
      } catch {
        return { status: 0, code: null, at: Date.now() };
      }
    }, 5);
    await new Promise((r) => setTimeout(r, 1_000));
    const queued = await runCliJson<{ run_id: string }>(['score', '--full', '--as-of', CITY_AS_OF, '--json'], env);

    const restartStarted = Date.now();
    // asynchronously: the readers keep sending while the cluster restarts
    await promisify(execFile)('pg_ctlcluster', ['--skip-systemctl-redirect', clusterVersion(), 'main', 'restart']);
    const restartSeconds = (Date.now() - restartStarted) / 1000;
    await ensurePostgresUp();
    const recovered = await poll('lookups to answer 200 again', async () => {
      const res = await send(port, { method: 'GET', path: `/api/v1/buildings/${bbls[0]}`, headers: { authorization: `Bearer ${key}` } });
      return res.status === 200 ? Date.now() : null;
    }, 60_000, 200);
    await new Promise((r) => setTimeout(r, 1_000));
    const reads = await probe.stop();

    const run = await poll('the scoring run to finish', async () => {
      const { rows } = await pool.query<{ status: string }>(`SELECT status FROM scoring_runs WHERE id = $1`, [queued.run_id]).catch(() => ({ rows: [] as { status: string }[] }));
      const status = rows[0]?.status;
      return status === 'succeeded' || status === 'failed' ? status : null;
    }, 240_000, 1_000);

    const counts: Record<string, number> = {};
    for (const r of reads) counts[`${r.status}${r.code ? ` ${r.code}` : ''}`] = (counts[`${r.status}${r.code ? ` ${r.code}` : ''}`] ?? 0) + 1;
    const unexpected = reads.filter((r) => !(r.status === 200 || (r.status === 503 && r.code === 'service_unavailable')));
    const unavailable = reads.filter((r) => r.status === 503).length;
    recordResult('postgres-restart', {
      restartCommandSeconds: restartSeconds,
      recoveredAfterSeconds: (recovered - restartStarted) / 1000,
      reads: reads.length,
      statuses: counts,
      unexpected: unexpected.length,
      serviceUnavailable: unavailable,
      scoringRun: run,
      apiRestarted: api.process.exited,
    });
    expect(unexpected).toEqual([]);
    // the outage was seen (otherwise the test proves nothing), and answered with 503 envelopes
    expect(unavailable).toBeGreaterThan(0);
    expect(run).toBe('succeeded');
    expect(api.process.exited).toBe(false);
  }, TEST_TIMEOUT_MS);
});
