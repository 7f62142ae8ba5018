import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { ApiError } from '@bhis/envelope';
import type { ApiKeyStore } from './api-key-store';
import { frontDoor } from './pipeline';
import type { RequestCharges } from './request-charges';

/** The front door with stand-ins for the key store and the charges: only what a request without a key needs. */
function serve(charge: () => Promise<void>): Promise<Server> {
  const keys = {} as ApiKeyStore;
  const charges = { chargeFromMemory: () => false, charge } as unknown as RequestCharges;
  const app = express();
  app.get('/ok', (_req, res) => res.json({ ok: true }));
  const server = createServer(frontDoor(app, { keys, charges }));
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
});
