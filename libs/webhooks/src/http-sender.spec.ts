import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeConnectionError, sendWebhookRequest } from './http-sender';

describe('webhook HTTP sender', () => {
  let server: http.Server;
  let port: number;
  const seen: { host?: string; path?: string; body: string }[] = [];
  let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ host: req.headers.host, path: req.url, body });
        handler(req, res);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const target = (host: string) => ({
    url: new URL(`http://${host}:${port}/hook?x=1`),
    host,
    addresses: [{ address: '127.0.0.1', family: 4 as const }],
  });

  it('connects to the checked address, not to a fresh DNS answer for the host', async () => {
    handler = (_req, res) => res.writeHead(204).end();
    // "hooks.invalid" cannot resolve: the request only arrives because the checked address is used
    const result = await sendWebhookRequest(target('hooks.invalid'), { 'webhook-id': 'msg_1' }, '{"a":1}', 2_000);
    expect(result).toEqual({ statusCode: 204, durationMs: expect.any(Number), retryAfter: undefined, error: null });
    expect(seen.at(-1)).toEqual({ host: `hooks.invalid:${port}`, path: '/hook?x=1', body: '{"a":1}' });
  });

  it('does not follow redirects and reports Retry-After', async () => {
    handler = (_req, res) => res.writeHead(302, { Location: 'http://169.254.169.254/', 'Retry-After': '7' }).end();
    const result = await sendWebhookRequest(target('hooks.invalid'), {}, '{}', 2_000);
    expect(result.statusCode).toBe(302);
    expect(result.retryAfter).toBe('7');
  });

  it('gives up after the timeout', async () => {
    handler = () => undefined; // never answers
    const result = await sendWebhookRequest(target('hooks.invalid'), {}, '{}', 300);
    expect(result.statusCode).toBeNull();
    expect(result.error).toBe('no response within 300 ms');
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('reports connection errors', async () => {
    const closed = { url: new URL('http://hooks.invalid:1/x'), host: 'hooks.invalid', addresses: [{ address: '127.0.0.1', family: 4 as const }] };
    const result = await sendWebhookRequest(closed, {}, '{}', 2_000);
    expect(result.statusCode).toBeNull();
    expect(result.error).toBe('ECONNREFUSED: the endpoint refused the connection');
  });

  it('reports connection failures without internal detail', () => {
    const error = Object.assign(new Error('connect EADDRNOTAVAIL 10.1.2.3:443 - Local (10.9.9.9:0)'), { code: 'EADDRNOTAVAIL' });
    expect(describeConnectionError(error)).toBe('EADDRNOTAVAIL: the connection failed');
    const dns = Object.assign(new Error('getaddrinfo EAI_AGAIN hooks.example via 10.0.0.2'), { code: 'EAI_AGAIN' });
    expect(describeConnectionError(dns)).not.toMatch(/10\.0\.0\.2/);
  });
});
