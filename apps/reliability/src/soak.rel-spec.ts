import autocannon from 'autocannon';
import { Pool } from 'pg';
import { createKey, RunningApi, startApi } from './support/api';
import { MODE, SETTINGS, TEST_TIMEOUT_MS } from './support/mode';
import { readProcessMemory } from '@bhis/testing';
import { recordResult } from './support/results';
import { cloneSeededCity, redisPrefix, SeededDatabase } from './support/seeded-city';

const CONNECTIONS = 32;
const WARM_UP_SECONDS = MODE === 'ci' ? 5 : 30;

function lookupLoad(url: string, key: string, bbls: string[], seconds: number, overallRate?: number): Promise<autocannon.Result> {
  let i = 0;
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    overallRate,
    headers: { authorization: `Bearer ${key}` },
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/v1/buildings/${bbls[i++ % bbls.length]}` }) }],
  });
}

describe(`soak: ${SETTINGS.soakSeconds} s of lookups at 80% of the measured maximum`, () => {
  let db: SeededDatabase;
  let api: RunningApi;

  beforeAll(async () => {
    db = await cloneSeededCity();
    api = await startApi({ DATABASE_URL: db.url, REDIS_PREFIX: redisPrefix() });
  }, 600_000);

  afterAll(async () => {
    await api?.process.stop();
    await db?.drop();
  }, 120_000);

  it('answers with no error but 429 and its memory does not grow', async () => {
    const { key } = await createKey(db.url, { rateLimitPerMin: 1_000_000_000 });
    const pool = new Pool({ connectionString: db.url, max: 1 });
    const bbls = (await pool.query<{ bbl: string }>(`SELECT bbl FROM buildings ORDER BY md5(bbl)`)).rows.map((r) => r.bbl.trim());
    await pool.end();

    await lookupLoad(api.url, key, bbls, 3);
    const max = await lookupLoad(api.url, key, bbls, 8);
    const maxRate = Math.round(max.requests.total / max.duration);
    const rate = Math.round(maxRate * 0.8);

    const samples: { second: number; rssBytes: number }[] = [];
    const started = Date.now();
    const sampler = setInterval(() => samples.push({ second: Math.round((Date.now() - started) / 1000), rssBytes: readProcessMemory(api.process.pid).rssBytes }), 5_000);
    const warmUp = await lookupLoad(api.url, key, bbls, WARM_UP_SECONDS, rate);
    const rssStart = readProcessMemory(api.process.pid).rssBytes;
    const soak = await lookupLoad(api.url, key, bbls, SETTINGS.soakSeconds, rate);
    clearInterval(sampler);
    const rssEnd = readProcessMemory(api.process.pid).rssBytes;

    const codes: Record<string, number> = {};
    for (const [code, stat] of Object.entries(soak.statusCodeStats ?? {})) codes[code] = stat.count ?? 0;
    const nonOk = Object.entries(codes).filter(([code]) => code !== '200' && code !== '429').reduce((s, [, n]) => s + n, 0);
    const growth = rssEnd - rssStart;
    recordResult('soak', {
      seconds: SETTINGS.soakSeconds,
      measuredMaxRps: maxRate,
      maxP99Ms: max.latency.p99,
      targetRps: rate,
      achievedRps: Math.round(soak.requests.total / soak.duration),
      requests: soak.requests.total,
      statusCodes: codes,
      errors: soak.errors,
      timeouts: soak.timeouts,
      p50Ms: soak.latency.p50,
      p99Ms: soak.latency.p99,
      warmUpRequests: warmUp.requests.total,
      rssStartMb: Math.round(rssStart / 1e6),
      rssEndMb: Math.round(rssEnd / 1e6),
      rssGrowthMb: Math.round(growth / 1e6),
      rssSamplesMb: samples.map((s) => [s.second, Math.round(s.rssBytes / 1e6)]),
    });
    expect(nonOk).toBe(0);
    expect(soak.errors).toBe(0);
    expect(soak.timeouts).toBe(0);
    // no growth beyond noise: 15% of the warmed-up size or 40 MB, whichever is larger. Garbage
    // collection makes RSS saw up and down by tens of MB at high rates, so two single readings can
    // land on a trough and a crest: a leak raises the floor, so the lowest reading of the soak's
    // second half is compared with the lowest of its first half.
    const soakSamples = samples.filter((s) => s.second > WARM_UP_SECONDS).map((s) => s.rssBytes);
    const half = Math.floor(soakSamples.length / 2);
    const floorGrowth =
      half >= 2 ? Math.min(...soakSamples.slice(half)) - Math.min(...soakSamples.slice(0, half)) : growth;
    expect(floorGrowth).toBeLessThan(Math.max(rssStart * 0.15, 40e6));
  }, TEST_TIMEOUT_MS);
});
