import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import { accessLog } from './access-log';
import type { PlatformRequest } from './request-context';

function collect(lines: Record<string, unknown>[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
}

/** The access lines of one request, and what the logger itself wrote (the access log writes to its own destination). */
async function serve(level: pino.Level, status: number, path = '/x?q=1', loggerLines: Record<string, unknown>[] = []): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  const sink = collect(lines);
  const app = express();
  app.use((req, _res, next) => {
    (req as PlatformRequest).platform = {
      requestId: 'req_test',
      startedAt: process.hrtime.bigint(),
      auth: { state: 'valid', key: { id: 'k', name: 'n', kind: 'live', prefix: 'sk_live_AbCdEfGh', scopes: [], rateLimitPerMin: null } },
      rateLimit: null,
      cost: 1,
      bodySettled: false,
      onFinish: [],
      publicBaseUrl: undefined,
      cors: null,
      trace: null,
    };
    next();
  });
  const log = accessLog(pino({ level, name: 'bhis-api' }, collect(loggerLines)), sink);
  app.use((req, res, next) => {
    res.once('finish', () => log(req, res));
    next();
  });
  app.get(/.*/, (_req, res) => res.status(status).send('{}'));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    await (await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: 'Bearer sk_live_AbCdEfGhsecretsecret' } })).text();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    server.close();
  }
  return lines;
}

describe('access log', () => {
  it('writes one line per request with id, route, status, time and the key prefix, never the key', async () => {
    const [line, ...rest] = await serve('info', 200);
    expect(rest).toHaveLength(0);
    expect(line).toEqual(
      expect.objectContaining({ level: 30, msg: 'request completed', req_id: 'req_test', req: { method: 'GET', url: '/x?q=1' }, res: { statusCode: 200 }, key_prefix: 'sk_live_AbCdEfGh' }),
    );
    expect(typeof line?.responseTime).toBe('number');
    expect(JSON.stringify(line)).not.toContain('secret');
  });

  it('writes the line pino would: its bindings, and any path escaped as JSON', async () => {
    const [line] = await serve('info', 200, '/x%22%5C?q="\\\'');
    expect(line).toEqual(expect.objectContaining({ pid: process.pid, hostname: hostname(), name: 'bhis-api', req: { method: 'GET', url: '/x%22%5C?q=%22\\%27' } }));
    expect(typeof line?.time).toBe('number');
  });

  it('writes to the destination it was given, never into the logger\'s stream', async () => {
    const loggers: Record<string, unknown>[] = [];
    expect(await serve('info', 200, '/x', loggers)).toHaveLength(1);
    expect(loggers).toEqual([]);
  });

  it('logs 5xx answers at error level', async () => {
    expect((await serve('info', 503))[0]).toEqual(expect.objectContaining({ level: 50, res: { statusCode: 503 } }));
  });

  it('writes nothing above info', async () => {
    expect(await serve('warn', 200)).toEqual([]);
  });
});
