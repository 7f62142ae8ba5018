import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { TLS_HANDSHAKE_TIMEOUT_MS } from './http-server-limits';
import { PlatformExpressAdapter, SHUTDOWN_GRACE_MS } from './platform-http-server';

/** A throwaway self-signed certificate for localhost, made by openssl. */
function selfSignedCertificate(): { cert: Buffer; key: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'bhis-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function listen(adapter: PlatformExpressAdapter): Promise<{ server: Server; port: number }> {
  const server = adapter.getHttpServer() as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** ms until the server closes a raw connection that sends `bytes` (or nothing), at most `limitMs`. */
function closedAfter(port: number, limitMs: number, bytes?: string): Promise<number> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1', () => bytes !== undefined && socket.write(bytes));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(limitMs);
    }, limitMs);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
    socket.resume();
  });
}

describe('PlatformExpressAdapter', () => {
  it('serves requests made as PlatformIncomingMessage, with the platform field from construction', async () => {
    const app = express();
    // Express gives the request its own prototype, so the field, not instanceof, tells the class it was made with
    app.get('/seen', (req, res) => res.json({ ownField: Object.hasOwn(req, 'platform') }));
    const adapter = new PlatformExpressAdapter(app);
    adapter.initHttpServer({});
    const server = adapter.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await (await fetch(`http://127.0.0.1:${port}/seen`)).json()).toEqual({ ownField: true });
    } finally {
      server.close();
    }
  });

  it('refuses forceCloseConnections rather than ignoring it', () => {
    expect(() => new PlatformExpressAdapter(express()).initHttpServer({ forceCloseConnections: true })).toThrow(/forceCloseConnections/);
  });

  it('ends a TLS handshake that does not finish within its timeout (Node waits 120 s)', async () => {
    const adapter = new PlatformExpressAdapter(express());
    adapter.initHttpServer({ httpsOptions: selfSignedCertificate() });
    const { server, port } = await listen(adapter);
    try {
      const ms = await closedAfter(port, TLS_HANDSHAKE_TIMEOUT_MS + 5_000);
      expect(ms).toBeGreaterThanOrEqual(TLS_HANDSHAKE_TIMEOUT_MS - 100);
      expect(ms).toBeLessThan(TLS_HANDSHAKE_TIMEOUT_MS + 2_000);
    } finally {
      server.close();
    }
  }, 30_000);

  it('closes a connection whose request never completes once the shutdown grace is over', async () => {
    const app = express();
    app.post('/slow', (req, res) => req.resume().on('end', () => res.end('{}')));
    const adapter = new PlatformExpressAdapter(app);
    adapter.initHttpServer({});
    const { port } = await listen(adapter);
    const stalled = closedAfter(port, SHUTDOWN_GRACE_MS + 5_000, 'POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await adapter.close();
    expect(Date.now() - started).toBeLessThan(SHUTDOWN_GRACE_MS + 1_000);
    expect(await stalled).toBeLessThan(SHUTDOWN_GRACE_MS + 1_500);
  }, 30_000);
});
