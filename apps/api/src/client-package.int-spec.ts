import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, repoRoot, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { generateSigningSecret, signWebhook } from '@bhis/webhooks';
import { seedCity, SEEDED_CITY } from './testing/seed-city';
import { createTestKey, startTestApi, TestApi } from './testing/test-api';

jest.setTimeout(180_000);

const CONSUMER_CJS = `
const { createBhisClient, items, verifyWebhook, WebhookVerificationError, BhisApiError } = require('@bhis/client');
(async () => {
  const client = createBhisClient(process.env.API_URL, process.env.API_KEY);
  const building = await client.GET('/buildings/{bbl}', { params: { path: { bbl: process.env.BBL } } });
  const events = [];
  for await (const event of items(
    (cursor) => client.GET('/buildings/{bbl}/events', { params: { path: { bbl: process.env.BBL }, query: { cursor, limit: 7 } } }),
    (page) => page.data.events,
  )) events.push(event.occurred_on);
  let badKey = null;
  try {
    for await (const _ of items((cursor) => createBhisClient(process.env.API_URL, 'sk_live_nope').GET('/buildings/search', { params: { query: { borough: 'MN', cursor } } }), (p) => p.data.buildings)) void _;
  } catch (error) {
    badKey = error instanceof BhisApiError ? { status: error.status, code: error.code } : String(error);
  }
  const hook = JSON.parse(process.env.HOOK);
  const payload = verifyWebhook(process.env.SECRET, hook.body, hook.headers);
  let tampered = null;
  try {
    verifyWebhook(process.env.SECRET, hook.body.replace('B', 'C'), hook.headers);
  } catch (error) {
    tampered = error instanceof WebhookVerificationError;
  }
  const limited = createBhisClient(process.env.API_URL, process.env.LIMITED_KEY, { retry: { maxWaitMs: 10 } });
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await limited.GET('/sources')).response.status);
  console.log(JSON.stringify({ grade: building.data.data.scores.grade, events, badKey, payload, tampered, statuses }));
})();
`;

const CONSUMER_MJS = `
import { createBhisClient, pages } from '@bhis/client';
const client = createBhisClient(process.env.API_URL, process.env.API_KEY, { retry: false });
const { data } = await client.GET('/buildings/{bbl}', { params: { path: { bbl: process.env.BBL } } });
console.log(JSON.stringify({ bbl: data.data.bbl, pages: typeof pages }));
`;

const CONSUMER_TS = `
import { createBhisClient, items, type Building, type BhisClient } from '@bhis/client';
const client: BhisClient = createBhisClient('http://127.0.0.1:1', 'sk_live_x');
export async function grade(bbl: string): Promise<Building['scores']> {
  const { data } = await client.GET('/buildings/{bbl}', { params: { path: { bbl } } });
  for await (const event of items((cursor) => client.GET('/buildings/{bbl}/events', { params: { path: { bbl }, query: { cursor } } }), (p) => p.data.events)) {
    const day: string | null = event.occurred_on;
    void day;
  }
  return data?.data.scores ?? null;
}
`;

/**
 * @bhis/client as someone outside the repository gets it: built, packed with `npm pack`, installed from
 * the tarball into a folder of its own, then used from CommonJS, ES modules and TypeScript against the
 * real API.
 */
describe('@bhis/client from its packed tarball', () => {
  let db: TestDatabase;
  let api: TestApi;
  let work: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    await seedCity(db.url);
    api = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
    work = mkdtempSync(path.join(tmpdir(), 'bhis-client-'));
  });

  afterAll(async () => {
    await api?.close();
    await db?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('installs, imports and calls the API, pages, retries and verifies deliveries', async () => {
    const root = repoRoot();
    const build = path.join(work, 'build');
    execFileSync(process.execPath, [path.join(root, 'tools/build/build-client.js'), '--out-dir', build], { cwd: root, stdio: 'pipe' });
    execFileSync('npm', ['pack', build, '--pack-destination', work, '--silent'], { cwd: work, stdio: 'pipe' });
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBe('bhis-client-0.1.0.tgz');

    const consumer = path.join(work, 'consumer');
    execFileSync('mkdir', ['-p', consumer]);
    writeFileSync(path.join(consumer, 'package.json'), '{ "name": "consumer", "private": true }\n');
    execFileSync('npm', ['install', path.join(work, tarball!), '--prefer-offline', '--no-audit', '--no-fund', '--silent'], { cwd: consumer, stdio: 'pipe' });
    writeFileSync(path.join(consumer, 'consumer.cjs'), CONSUMER_CJS);
    writeFileSync(path.join(consumer, 'consumer.mjs'), CONSUMER_MJS);
    writeFileSync(path.join(consumer, 'consumer.ts'), CONSUMER_TS);

    const [first] = SEEDED_CITY;
    const { key } = await createTestKey(db.url);
    const limited = await createTestKey(db.url, { rateLimitPerMin: 2 });
    const secret = generateSigningSecret();
    const body = JSON.stringify({ type: 'grade.changed', data: { bbl: first!.bbl, from: 'B', to: 'C' } });
    const hook = { body, headers: signWebhook(secret, 'msg_1', body) };
    const env = { ...process.env, API_URL: api.url, API_KEY: key, LIMITED_KEY: limited.key, BBL: first!.bbl, SECRET: secret, HOOK: JSON.stringify(hook) };

    // asynchronously: the API answers from this process
    const run = async (file: string) => JSON.parse((await promisify(execFile)(process.execPath, [file], { cwd: consumer, env, encoding: 'utf8' })).stdout) as Record<string, unknown>;
    const cjs = await run('consumer.cjs');
    expect(cjs.grade).toBe('F');
    expect(cjs.events).toHaveLength(first!.events);
    expect(cjs.badKey).toEqual({ status: 401, code: 'invalid_api_key' });
    expect(cjs.payload).toEqual(JSON.parse(body));
    expect(cjs.tampered).toBe(true);
    // the third request of a 2-a-minute key is a 429 whose Retry-After exceeds maxWaitMs: returned, not waited for
    expect(cjs.statuses).toEqual([200, 200, 429]);
    expect(await run('consumer.mjs')).toEqual({ bbl: first!.bbl, pages: 'function' });

    // the published types: strict TypeScript resolving the package as Node does (exports, types)
    execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2023,dom', 'consumer.ts'], {
      cwd: consumer,
      stdio: 'pipe',
    });
  });
});
