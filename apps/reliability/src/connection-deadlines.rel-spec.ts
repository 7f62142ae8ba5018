import { once } from 'node:events';
import { connect, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, SHUTDOWN_GRACE_MS, SOCKET_POLICY } from '@bhis/api-platform';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { createKey, RunningApi, startApi } from './support/api';
import { TEST_TIMEOUT_MS } from './support/mode';

/** What a raw connection received, and when (ms after it was opened) the server ended it. */
interface Conversation {
  socket: Socket;
  received: () => string;
  /** ms from the connection's opening until the server's answer began, or null */
  answeredAfterMs: () => number | null;
  /** resolves with ms from the opening until the server ended or closed the connection */
  closed: Promise<number>;
}

/** Every connection a test opened, closed after it (a client that stays half open holds a place of its address). */
const opened: Socket[] = [];

function converse(port: number, bytes?: string | Buffer): Conversation {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  opened.push(socket);
  const start = Date.now();
  let text = '';
  let answeredAt: number | null = null;
  socket.on('error', () => undefined);
  socket.on('data', (chunk: Buffer) => {
    answeredAt ??= Date.now() - start;
    text += chunk.toString('latin1');
  });
  const closed = new Promise<number>((resolve) => {
    socket.once('end', () => resolve(Date.now() - start));
    socket.once('close', () => resolve(Date.now() - start));
  });
  if (bytes !== undefined) socket.once('connect', () => socket.write(bytes));
  return { socket, received: () => text, answeredAfterMs: () => answeredAt, closed };
}

/** The promise's value, or `fallback` after `ms` (a protection that is missing fails the test instead of hanging it). */
function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([promise, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms).unref())]);
}

function statusOf(text: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
}

/** A POST whose headers are complete and whose body stops after its first bytes (a gzip body of 10 KB). */
function stalledBody(key: string): Buffer {
  const body = gzipSync(JSON.stringify({ bbls: Array.from({ length: 10_000 }, (_, i) => `1${String(10_000 + i).padStart(5, '0')}0001`) }));
  const head = `POST /api/v1/portfolio/analyze HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), body.subarray(0, Math.floor(body.length / 2))]);
}

describe('every connection and body on a deadline: the built API process and real sockets', () => {
  let db: TestDatabase;
  let api: RunningApi;
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    key = (await createKey(db.url, { scopes: ['buildings:read', 'portfolio:read', 'portfolio:write'], rateLimitPerMin: 100_000 })).key;
    api = await startApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
  }, 300_000);

  afterEach(async () => {
    for (const socket of opened.splice(0)) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
  });

  afterAll(async () => {
    await api?.process.stop();
    await db?.drop();
  }, 120_000);

  it(
    'closes a silent connection, answers slow headers and a stalled body 408 at their deadlines, to the second',
    async () => {
      const silent = converse(api.port);
      const slowHeaders = converse(api.port, `GET /api/v1/health HTTP/1.1\r\nHost: x\r\n`);
      const stalled = converse(api.port, stalledBody(key));
      const bound = REQUEST_TIMEOUT_MS + 15_000;
      const [silentClosed, headersClosed, bodyClosed] = await Promise.all([silent, slowHeaders, stalled].map((c) => within(c.closed, bound, bound)));

      // a connection that never sends a byte: closed after the idle limit, without an answer
      expect(silent.received()).toBe('');
      expect(silentClosed).toBeGreaterThanOrEqual(SOCKET_POLICY.idleBeforeRequestMs - 100);
      expect(silentClosed).toBeLessThan(SOCKET_POLICY.idleBeforeRequestMs + 2_000);

      // headers that never end: 408 within the second after the 20 s deadline (Node's own check runs every 30 s)
      expect(statusOf(slowHeaders.received())).toBe(408);
      expect(slowHeaders.received()).toContain('"code":"request_timeout"');
      expect(slowHeaders.answeredAfterMs()).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
      expect(slowHeaders.answeredAfterMs()).toBeLessThan(HEADERS_TIMEOUT_MS + 2_000);
      expect(headersClosed).toBeLessThan(HEADERS_TIMEOUT_MS + 2_000);

      // a valid key's body that stops arriving: 408 at the request's deadline, then the connection is closed
      expect(statusOf(stalled.received())).toBe(408);
      expect(stalled.received()).toContain('"code":"request_timeout"');
      expect(stalled.received()).toMatch(/Connection: close/i);
      expect(stalled.answeredAfterMs()).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
      expect(stalled.answeredAfterMs()).toBeLessThan(REQUEST_TIMEOUT_MS + 2_000);
      // the lingering close waits at most 5 s for a client that sends nothing more
      expect(bodyClosed).toBeLessThan(REQUEST_TIMEOUT_MS + 8_000);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'closes its side of connections whose clients hang up mid-body, so no CLOSE-WAIT socket stays',
    async () => {
      const clients = Array.from({ length: 20 }, () => converse(api.port, stalledBody(key)));
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (const client of clients) client.socket.end();
      const closed = await Promise.all(clients.map((c) => within(c.closed, 5_000, -1)));
      expect(closed.filter((ms) => ms < 0)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'closes the connections of one address past its cap as they open, and serves it again once they close',
    async () => {
      const cap = SOCKET_POLICY.maxConnectionsPerAddress;
      const sockets = Array.from({ length: cap + 10 }, () => converse(api.port));
      await Promise.all(sockets.map((s) => (s.socket.connecting ? once(s.socket, 'connect').catch(() => undefined) : undefined)));
      const settled = await Promise.all(sockets.map((s) => within(s.closed, 2_000, -1)));
      // the server closed exactly the connections past the cap, at once
      expect(settled.filter((ms) => ms >= 0)).toHaveLength(10);
      for (const s of sockets) s.socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const again = await fetch(`${api.url}/api/v1/health`);
      expect(again.status).toBe(200);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'refuses a transfer coding other than chunked with 400 and closes the connection (RFC 9112 section 6.1)',
    async () => {
      const talk = converse(api.port, `POST /api/v1/portfolio/analyze HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: xchunked\r\n\r\n{"bbls":[]}`);
      const closedAfter = await within(talk.closed, 30_000, 30_000);
      expect(statusOf(talk.received())).toBe(400);
      expect(talk.received()).toContain('"code":"invalid_request"');
      // closed by the lingering close (5 s without a byte), not left waiting for a body without a length
      expect(closedAfter).toBeLessThan(8_000);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'drains and exits on SIGTERM within its bound, even with stalled clients',
    async () => {
      const second = await startApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
      const stalled = Array.from({ length: 20 }, () => converse(second.port, stalledBody(key)));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const started = Date.now();
      const exited = once(second.process.child, 'exit');
      second.process.child.kill('SIGTERM');
      const [code] = await within(exited as Promise<[number | null]>, 30_000, [-1]);
      // the requests under way get SHUTDOWN_GRACE_MS, then every connection is closed
      expect(Date.now() - started).toBeLessThan(SHUTDOWN_GRACE_MS + 4_000);
      // neither killed by the 15 s bound of main.ts (exit code 1) nor still running
      expect(code).not.toBe(1);
      expect(code).not.toBe(-1);
      const closed = await Promise.all(stalled.map((s) => within(s.closed, 1_000, -1)));
      expect(closed.filter((ms) => ms < 0)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
