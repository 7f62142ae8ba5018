import { createServer, Server } from 'node:http';
import { AddressInfo, connect } from 'node:net';
import express from 'express';
import { ApiError } from '@bhis/envelope';
import type { ApiKeyStore } from './api-key-store';
import { frontDoor } from './pipeline';
import type { RequestCharges } from './request-charges';
import type { PlatformRequest, ResponseFinished } from './request-context';

/** The front door with stand-ins for the key store and the charges: only what a request without a key needs. */
function serve(charge: (req: PlatformRequest) => Promise<void>, onFinish: ResponseFinished[] = []): Promise<Server> {
  const keys = {} as ApiKeyStore;
  const charges = { chargeFromMemory: () => 'undecided', charge } as unknown as RequestCharges;
  const app = express();
  app.get('/ok', (_req, res) => res.json({ ok: true }));
  const server = createServer(frontDoor(app, { keys, charges, onFinish }));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('front door', () => {
  it('hands a request on to the Express app once the steps let it through', async () => {
    const server = await serve(async () => undefined);
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/ok`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    } finally {
      server.close();
    }
  });

  it('answers 500 for a step whose refusal cannot be written, and leaves no unhandled rejection behind', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown): void => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    // a refusal whose header value Node refuses to write: sending the envelope itself throws
    const server = await serve(() => Promise.reject(new ApiError('rate_limit_exceeded', 'no', { headers: { 'Retry-After': 'bad\nvalue' } })));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/ok`);
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ error: { code: 'internal_error' } });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      server.close();
    }
  });

  it('writes an answer of its own with the platform headers once, and runs the finish work once', async () => {
    const finished: number[] = [];
    const charge = async (req: PlatformRequest): Promise<void> => {
      req.platform.cost = 1;
      req.platform.rateLimit = { limit: 5, remaining: 0, reset_at: '2026-11-25T10:00:00.000Z' };
      throw new ApiError('rate_limit_exceeded', 'Rate limit of 5 units per minute exceeded.', { headers: { 'Retry-After': '7', 'X-RateLimit-Cost': '2' } });
    };
    const server = await serve(charge, [(_req, res) => finished.push(res.statusCode)]);
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/ok`);
      expect(res.status).toBe(429);
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => (headers[name] = value));
      expect(headers).toMatchObject({
        'x-request-id': expect.stringMatching(/^req_/) as unknown,
        'strict-transport-security': 'max-age=63072000; includeSubDomains',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': '2026-11-25T10:00:00.000Z',
        // the refusal's own cost, not the platform's as well
        'x-ratelimit-cost': '2',
        'retry-after': '7',
        'cache-control': 'no-store',
        'content-type': 'application/json; charset=utf-8',
      });
      const body = (await res.json()) as { meta: { request_id: string } };
      expect(body.meta.request_id).toBe(res.headers.get('x-request-id'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(finished).toEqual([429]);
    } finally {
      server.close();
    }
  });

  it('sets the platform headers on a response of the router, and runs the finish work once it is sent', async () => {
    const finished: number[] = [];
    const server = await serve(async (req) => void (req.platform.cost = 1), [(_req, res) => finished.push(res.statusCode)]);
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/ok`);
      expect(res.status).toBe(200);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
      expect(res.headers.get('x-ratelimit-cost')).toBe('1');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(finished).toEqual([200]);
    } finally {
      server.close();
    }
  });

  it('answers a request with a transfer coding other than chunked 400 and closes the connection, without dispatching it (RFC 9112 section 6.1)', async () => {
    const dispatched: string[] = [];
    const server = await serve(async (req) => void dispatched.push(req.path));
    try {
      const { port } = server.address() as AddressInfo;
      // codings Node's parser lets through (it refuses `chunked, identity` itself)
      for (const coding of ['xchunked', 'gzip, chunked']) {
        const received = await new Promise<string>((resolve) => {
          let text = '';
          const socket = connect(port, '127.0.0.1', () => socket.write(`POST /ok HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ${coding}\r\n\r\n5\r\nhello\r\n`));
          socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
          socket.on('close', () => resolve(text));
          socket.on('error', () => undefined);
        });
        expect([coding, received.slice(0, 12)]).toEqual([coding, 'HTTP/1.1 400']);
        expect(received).toMatch(/Connection: close/i);
        expect(received).toContain('"code":"invalid_request"');
      }
      expect(dispatched).toEqual([]);
      const chunked = await fetch(`http://127.0.0.1:${port}/ok`, { method: 'POST', body: new Blob(['{}']).stream(), duplex: 'half' } as RequestInit);
      expect(chunked.status).toBe(404);
    } finally {
      server.close();
    }
  });
});
