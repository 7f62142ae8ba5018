import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { RawRequest } from './http';

/** Values the fuzzer plugs into the requests: real data of the seeded city and real keys. */
export interface FuzzContext {
  bbls: string[];
  liveKey: string;
  adminKey: string;
  revokedKey: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'CONNECT'] as const;

/** Characters kept raw in a path (a raw `%` makes malformed escapes); anything else is percent-encoded. */
const RAW_PATH_CHARS = /[A-Za-z0-9\-._~!$&'()*+,;=:@/%]/;

export function pathSafe(text: string): string {
  let out = '';
  for (const ch of text) out += RAW_PATH_CHARS.test(ch) ? ch : encodeURIComponent(ch).replace(/%(?![0-9A-F]{2})/g, '%25');
  return out;
}

const nastyText = fc.oneof(
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ maxLength: 400 }),
  fc.constantFrom(
    '', ' ', '0', '-1', '1e309', 'NaN', 'null', 'true', '[]', '{}', '%', '%zz', '%00', '%ED%A0%80', '%C0%80', '..', '../../etc/passwd', '\\', "'", '"',
    "1' OR '1'='1", '1;--', '$where', '__proto__', 'constructor', '1000010001', '0000000000', '9999999999', '1 000 010 001', '１０００', '2024-02-30', '9999-12-31',
    'A,F', 'D', 'z'.repeat(5000), '1'.repeat(300),
  ),
);

const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 }),
  fc.constantFrom('', ' ', 'null', 'undefined', 'Bearer', 'Bearer ', 'Bearer  ', 'bearer sk_live_', 'Basic dXNlcjpwYXNz', 'sk_demo_x', 'sk_live_' + 'a'.repeat(60)),
);

function paramNames(extra: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      'include', 'address', 'borough', 'zipcode', 'grade', 'owner', 'building_class', 'min_score', 'max_score', 'sort', 'limit', 'cursor',
      'source', 'category', 'severity', 'since', 'until', 'status', 'bbl', 'id', '__proto__', 'constructor[prototype]', 'limit[]', 'a[b][c]', ...extra,
    ),
    fc.string({ unit: 'binary-ascii', maxLength: 12 }),
  );
}

const queryString = fc.array(fc.tuple(paramNames([]), nastyText, fc.boolean()), { maxLength: 4 }).map((pairs) =>
  pairs.length === 0 ? '' : `?${pairs.map(([k, v, raw]) => (raw ? `${pathSafe(k)}=${pathSafe(v)}` : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)).join('&')}`,
);

function jsonBodies(ctx: FuzzContext): fc.Arbitrary<string> {
  const bbl = fc.oneof(fc.constantFrom(...ctx.bbls), nastyText, fc.integer().map(String));
  return fc.oneof(
    { weight: 10, arbitrary: fc.record({ bbls: fc.array(bbl, { maxLength: 30 }) }).map((v) => JSON.stringify(v)) },
    { weight: 10, arbitrary: fc.record({ bbls: fc.array(fc.anything(), { maxLength: 5 }) }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.integer({ min: 9_990, max: 10_050 }).map((n) => JSON.stringify({ bbls: Array.from({ length: n }, (_, i) => ctx.bbls[i % ctx.bbls.length]) })) },
    {
      weight: 10,
      arbitrary: fc
        .record(
          {
            name: nastyText,
            bbls: fc.array(bbl, { maxLength: 5 }),
            webhook_url: fc.oneof(fc.webUrl(), nastyText, fc.constantFrom('http://127.0.0.1:5432/', 'http://169.254.169.254/latest', 'file:///etc/passwd')),
            events: fc.array(nastyText, { maxLength: 3 }),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
    },
    { weight: 10, arbitrary: fc.record({ source: nastyText, input: fc.anything(), kind: nastyText, as_of: nastyText, bbls: fc.array(bbl, { maxLength: 3 }) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)) },
    { weight: 10, arbitrary: fc.record({ address: nastyText, grade: nastyText, borough: nastyText, min_score: fc.anything(), sort: nastyText }, { requiredKeys: [] }).map((v) => JSON.stringify(v)) },
    { weight: 10, arbitrary: fc.json({ maxDepth: 4 }) },
    { weight: 10, arbitrary: fc.anything().map((v) => JSON.stringify(v) ?? 'undefined') },
    { weight: 10, arbitrary: nastyText },
    { weight: 10, arbitrary: fc.constantFrom('{', '{"bbls":', '{"bbls":[1,2', '[[[[[[[[[[', '['.repeat(10_000) + ']'.repeat(10_000), '{"__proto__":{"polluted":true},"bbls":["1000010001"]}', '\u0000', '{"bbls":"1000010001"}') },
    { weight: 1, arbitrary: fc.integer({ min: 1_000_000, max: 12_000_000 }).map((n) => JSON.stringify({ bbls: ['x'.repeat(n)] })) },
    // just over the body limits (28,384 and 256,384 bytes, libs/api-platform/src/route-costs.ts), over
    // the limits of earlier versions (1 and 10 MiB), up to the 16 MiB the server still reads and discards
    { weight: 1, arbitrary: fc.constantFrom(28_384 + 1, 256_384 + 1, 1024 * 1024 + 1, 10 * 1024 * 1024 + 1, 15 * 1024 * 1024).map((n) => `{"bbls":["${'y'.repeat(n - 12)}"]}`) },
  );
}

const contentTypes = fc.constantFrom(
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'application/JSON', 'text/plain', 'text/csv',
  'application/x-www-form-urlencoded', 'multipart/form-data; boundary=----x', 'application/xml', 'application/json, text/plain', '*/*', ';;;', 'application/',
);

function routes(ctx: FuzzContext): fc.Arbitrary<{ method: string; path: string }> {
  const bbl = fc.oneof(fc.constantFrom(...ctx.bbls), nastyText.map(pathSafe));
  const id = fc.oneof(fc.uuid(), nastyText.map(pathSafe));
  return fc.oneof(
    fc.constantFrom('/', '/api', '/api/v1', '/api/v1/', '/api/v1/health', '/metrics', '/api/v1/openapi.json', '/api/v1/sources', '/admin/queues', '/admin/queues/api/queues', '/api/v2/buildings', '/api/v1/buildings', '/api/v1/buildings/', '//api//v1', '/api/v1/buildings/batch', '/api/v1/buildings/search', '/api/v1/portfolio/analyze', '/api/v1/export/csv', '/api/v1/portfolio/monitor', '/api/v1/admin/ingest', '/api/v1/admin/score').map((path) => ({ method: 'GET', path })),
    bbl.map((b) => ({ method: 'GET', path: `/api/v1/buildings/${b}` })),
    bbl.map((b) => ({ method: 'GET', path: `/api/v1/buildings/${b}/events` })),
    bbl.map((b) => ({ method: 'GET', path: `/api/v1/buildings/${b}/trajectory` })),
    fc.constant({ method: 'GET', path: '/api/v1/buildings/search' }),
    fc.constantFrom('/api/v1/buildings/batch', '/api/v1/portfolio/analyze', '/api/v1/export/csv', '/api/v1/portfolio/monitor', '/api/v1/admin/ingest', '/api/v1/admin/score').map((path) => ({ method: 'POST', path })),
    id.map((i) => ({ method: 'GET', path: `/api/v1/portfolio/monitor/${i}` })),
    id.map((i) => ({ method: 'DELETE', path: `/api/v1/portfolio/monitor/${i}` })),
    id.map((i) => ({ method: 'POST', path: `/api/v1/portfolio/monitor/${i}/test` })),
    id.map((i) => ({ method: 'GET', path: `/api/v1/portfolio/monitor/${i}/deliveries` })),
    id.map((i) => ({ method: 'GET', path: `/api/v1/admin/ingest/${i}` })),
    id.map((i) => ({ method: 'GET', path: `/api/v1/admin/score/${i}` })),
    nastyText.map((t) => ({ method: 'GET', path: `/${pathSafe(t)}` })),
  );
}

function authHeaders(ctx: FuzzContext): fc.Arbitrary<Record<string, string>> {
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.constant(ctx.liveKey) },
    { weight: 2, arbitrary: fc.constant(ctx.adminKey) },
    fc.constant(ctx.revokedKey),
    fc.constant(ctx.liveKey.toUpperCase()),
    fc.constant(ctx.liveKey.slice(0, -1)),
    fc.constant(`${ctx.liveKey} `),
    headerValue,
  );
  return fc.oneof(
    { weight: 6, arbitrary: key.map((k) => ({ authorization: `Bearer ${k}` })) },
    key.map((k) => ({ 'x-api-key': k })),
    fc.tuple(key, key).map(([a, b]) => ({ authorization: `Bearer ${a}`, 'x-api-key': b })),
    headerValue.map((v) => ({ authorization: v })),
    fc.constant({}),
  );
}

const extraHeaders = fc.oneof(
  { weight: 8, arbitrary: fc.constant({}) },
  fc.record({ 'if-none-match': headerValue, accept: fc.constantFrom('application/json', 'text/csv', '*/*', 'text/html', 'application/xml', ''), 'accept-encoding': fc.constantFrom('gzip', 'br', 'identity', 'deflate, gzip;q=0', 'x') }, { requiredKeys: [] }),
  fc.record({ 'x-forwarded-for': headerValue, 'x-forwarded-proto': headerValue, 'x-forwarded-host': headerValue, 'x-request-id': headerValue, host: fc.constantFrom('127.0.0.1', 'evil.example', '', 'a'.repeat(300)) }, { requiredKeys: [] }),
  fc.integer({ min: 1_000, max: 40_000 }).map((n) => ({ 'x-huge': 'h'.repeat(n) })),
  fc.integer({ min: 50, max: 150 }).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-many-${i}`, 'v']))),
);

/** The same route spelled differently: another case, a trailing slash, doubled slashes, an upper-case prefix. */
const pathVariant = fc.constantFrom<(path: string) => string>(
  (p) => p,
  (p) => `${p}/`,
  (p) => p.toUpperCase(),
  (p) => p.replace('/api/', '/API/'),
  (p) => p.replace(/\/(\w)/, (_m, c: string) => `/${c.toUpperCase()}`),
  (p) => p.replace(/\//g, '//'),
  (p) => `${p}/.`,
);

/** How a body is sent: as is, compressed (gzip is accepted, others refused), or as a small compressed bomb. */
const bodyEncoding = fc.oneof(
  { weight: 12, arbitrary: fc.constant('identity') },
  fc.constantFrom('gzip', 'br', 'deflate', 'x-unknown', 'gzip, br', 'GZIP'),
  fc.constantFrom('gzip-bomb', 'br-bomb', 'gzip-deep', 'gzip-objects'),
);

/** ~11 MiB of zeros, ~10 MiB of nested arrays and 10 MiB of `{"bbls":[{},{},...]}`, compressed once (a few KiB each). */
const BOMBS = {
  gzip: gzipSync(Buffer.alloc(11 * 1024 * 1024, 0x30)),
  br: brotliCompressSync(Buffer.from(`{"bbls":[${'['.repeat(5 * 1024 * 1024)}${']'.repeat(5 * 1024 * 1024)}]}`)),
  deep: gzipSync(Buffer.from(`{"bbls":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)),
  objects: gzipSync(Buffer.from(`{"bbls":[${'{},'.repeat(3_495_250)}{}]}`), { level: 9 }),
};

function encodeBody(body: string, encoding: string): { body: string | Buffer; header?: string } {
  switch (encoding) {
    case 'identity':
      return { body };
    case 'gzip':
    case 'GZIP':
      return { body: gzipSync(body), header: encoding };
    case 'br':
      return { body: brotliCompressSync(body), header: 'br' };
    case 'deflate':
      return { body: deflateSync(body), header: 'deflate' };
    case 'gzip-bomb':
      return { body: BOMBS.gzip, header: 'gzip' };
    case 'br-bomb':
      return { body: BOMBS.br, header: 'br' };
    case 'gzip-objects':
      return { body: BOMBS.objects, header: 'gzip' };
    case 'gzip-deep':
      return { body: BOMBS.deep, header: 'gzip' };
    default:
      return { body: gzipSync(body), header: encoding };
  }
}

/** One random request: a route (or anything), any method sometimes, random query, headers and body. */
export function fuzzRequest(ctx: FuzzContext): fc.Arbitrary<RawRequest> {
  return fc
    .record({
      route: routes(ctx),
      otherMethod: fc.option(fc.constantFrom(...METHODS), { freq: 5 }),
      query: fc.option(queryString, { freq: 2 }),
      auth: authHeaders(ctx),
      contentType: fc.option(contentTypes, { freq: 4 }),
      extra: extraHeaders,
      body: fc.option(jsonBodies(ctx), { freq: 4 }),
      variant: fc.option(pathVariant, { freq: 4 }),
      encoding: bodyEncoding,
    })
    .map(({ route, otherMethod, query, auth, contentType, extra, body, variant, encoding }) => {
      const method = otherMethod ?? route.method;
      const withBody = body !== null && method !== 'GET' && method !== 'HEAD';
      const headers: Record<string, string> = { ...extra, ...auth };
      if (contentType !== null) headers['content-type'] = contentType;
      else if (withBody) headers['content-type'] = 'application/json';
      const path = `${variant ? variant(route.path) : route.path}${query ?? ''}`;
      if (!withBody) return { method, path, headers };
      const encoded = encodeBody(body, encoding);
      if (encoded.header) headers['content-encoding'] = encoded.header;
      return { method, path, headers, body: encoded.body };
    });
}
