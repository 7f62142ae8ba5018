import { connect, Socket } from 'node:net';
import fc from 'fast-check';
import { Pool } from 'pg';
import { createKey, revokeKey, RunningApi, startApi } from './support/api';
import { fuzzRequest, FuzzContext } from './support/fuzz-requests';
import { RawRequest, send, sendMany } from './support/http';
import { findLeak } from './support/leaks';
import { SETTINGS, TEST_TIMEOUT_MS } from './support/mode';
import { recordResult } from './support/results';
import { cloneSeededCity, redisPrefix, SeededDatabase } from './support/seeded-city';

const SEED = 20261121;

interface Outcome {
  status: number;
  problem: string | null;
  /** the client refused to send it (Node validates methods, paths and headers) */
  notSent: boolean;
}

describe(`fuzzing the API process: ${SETTINGS.fuzzRequests} random and malformed requests`, () => {
  let db: SeededDatabase;
  let api: RunningApi;
  let ctx: FuzzContext;

  beforeAll(async () => {
    db = await cloneSeededCity();
    const pool = new Pool({ connectionString: db.url, max: 1 });
    try {
      const { rows } = await pool.query<{ bbl: string }>(`SELECT bbl FROM building_scores ORDER BY bbl LIMIT 50`);
      const revoked = await createKey(db.url, { name: 'revoked' });
      await revokeKey(db.url, revoked.id);
      ctx = {
        bbls: rows.map((r) => r.bbl.trim()),
        liveKey: (await createKey(db.url, { rateLimitPerMin: 100_000_000 })).key,
        adminKey: (await createKey(db.url, { scopes: ['buildings:read', 'events:read', 'portfolio:read', 'portfolio:write', 'sources:read', 'admin'], rateLimitPerMin: 100_000_000 })).key,
        revokedKey: revoked.key,
      };
    } finally {
      await pool.end();
    }
    // no worker consumes this Redis namespace: admin requests may queue jobs, nothing runs them
    api = await startApi({
      DATABASE_URL: db.url,
      REDIS_PREFIX: redisPrefix(),
      RATE_LIMIT_ANONYMOUS_PER_MIN: '10000000',
      RATE_LIMIT_AUTH_FAILURES_PER_MIN: '10000000',
    });
  }, 600_000);

  afterAll(async () => {
    await api?.process.stop();
    await db?.drop();
  }, 120_000);

  function check(status: number, body: string): string | null {
    if (status >= 500) return `${status}: ${body.slice(0, 300)}`;
    const leak = findLeak(body);
    return leak ? `${leak.what} in a ${status} body: ${leak.excerpt}` : null;
  }

  /** Slow clients alongside the fuzz: exports that are never read, and headers sent a byte at a time. */
  function slowClients(): Socket[] {
    const sockets: Socket[] = [];
    const exportBody = JSON.stringify({ bbls: ctx.bbls });
    for (let i = 0; i < 6; i++) {
      const socket = connect(api.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(
        `POST /api/v1/export/csv HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ctx.liveKey}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(exportBody)}\r\n\r\n${exportBody}`,
      );
      socket.pause();
      sockets.push(socket);
    }
    for (let i = 0; i < 4; i++) {
      const socket = connect(api.port, '127.0.0.1');
      socket.on('error', () => undefined);
      const text = `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: ${'s'.repeat(200)}\r\n\r\n`;
      let at = 0;
      const timer = setInterval(() => (at < text.length ? socket.write(text[at++]) : clearInterval(timer)), 250);
      socket.on('close', () => clearInterval(timer));
      sockets.push(socket);
    }
    return sockets;
  }

  it('answers every request without a 5xx, a stack trace, SQL or an internal address, and never closes without an answer', async () => {
    const requests = fc.sample(fuzzRequest(ctx), { numRuns: SETTINGS.fuzzRequests, seed: SEED });
    const slow = slowClients();
    const started = Date.now();
    const outcomes = await sendMany<Outcome>(requests.length, 8, async (i) => {
      const req = requests[i] as RawRequest;
      try {
        const res = await send(api.port, req);
        return { status: res.status, problem: check(res.status, res.body), notSent: false };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // refused by the client itself before sending (invalid method token, path or header value);
        // anything else without an HTTP answer (reset, closed, timed out) is a failure
        const code = (error as { code?: string }).code ?? '';
        const notSent = /^ERR_(INVALID|UNESCAPED|HTTP_INVALID)/.test(code);
        return { status: 0, problem: notSent ? null : `no answer (${code || message})`, notSent };
      }
    });
    const seconds = (Date.now() - started) / 1000;
    for (const socket of slow) socket.destroy();
    const statuses: Record<string, number> = {};
    for (const o of outcomes) statuses[String(o.status)] = (statuses[String(o.status)] ?? 0) + 1;
    const problems = outcomes
      .map((o, i) => {
        const req = requests[i];
        if (!o.problem || !req) return null;
        const body = req.body === undefined ? '' : ` body ${String(req.body).slice(0, 300)}`;
        return `${req.method} ${req.path.slice(0, 120)} headers ${JSON.stringify(req.headers).slice(0, 300)}${body} -> ${o.problem}`;
      })
      .filter((p): p is string => p !== null);
    const sent = outcomes.filter((o) => !o.notSent).length;
    recordResult('fuzz', { requests: requests.length, sent, seconds, statuses, problems: problems.length, firstProblems: problems.slice(0, 5) });
    expect(problems.slice(0, 10)).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(SETTINGS.fuzzRequests * 0.95);
    // the API is still healthy afterwards
    expect((await send(api.port, { method: 'GET', path: '/api/v1/health', headers: {} })).status).toBe(200);
  }, TEST_TIMEOUT_MS);
});
