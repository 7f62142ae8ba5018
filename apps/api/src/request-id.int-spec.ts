import pino from 'pino';
import { LOG_DESTINATION } from '@bhis/api-platform';
import { REQUEST_ID_PATTERN } from '@bhis/envelope';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { createTestKey, startTestApi, TestApi } from './testing/test-api';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

describe("a client's request id and trace context (real Postgres and Redis)", () => {
  let db: TestDatabase;
  let api: TestApi;
  let key: string;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), LOG_LEVEL: 'info' });
    ({ key } = await createTestKey(db.url));
    // the access log writes its lines to the logger's destination: read them there
    const destination = api.app.get<pino.DestinationStream>(LOG_DESTINATION);
    jest.spyOn(destination, 'write').mockImplementation((line: string) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (parsed.msg === 'request completed') lines.push(parsed);
      return true;
    });
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await api?.close();
    await db?.drop();
  });

  async function get(path: string, headers: Record<string, string>) {
    const res = await fetch(`${api.url}${path}`, { headers });
    const body = (await res.json()) as { meta: { request_id: string } };
    return { status: res.status, header: res.headers.get('x-request-id'), metaId: body.meta.request_id };
  }

  /** The access line of the request with this id (written right after the answer; a moment later for the router's). */
  async function lineOf(requestId: string): Promise<Record<string, unknown> | undefined> {
    for (let i = 0; i < 50 && !lines.some((l) => l.req_id === requestId); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    return lines.find((l) => l.req_id === requestId);
  }

  it("uses an acceptable X-Request-Id as the request's id: header, meta and access log, on every path", async () => {
    const ids = ['client-7f3a.42', '01HZX3J8W6V9K2M4N5P6Q7R8S9', 'c3VwcG9ydA+/=_:x', 'req_5f0c6b1e9a3d4c2b1a0f9e8d', 'x'.repeat(128)];
    const paths: [string, Record<string, string>, number][] = [
      ['/api/v1', { Authorization: `Bearer ${key}` }, 200], // the router
      ['/api/v1/buildings/1000010001', {}, 401], // refused by the scope guard
      ['/api/v1/buildings/1000010001', { Authorization: `Bearer ${key}` }, 404],
      ['/api/v1/no-such-route', { Authorization: `Bearer ${key}` }, 404],
    ];
    for (const [i, id] of ids.entries()) {
      const [path, headers, status] = paths[i % paths.length] as (typeof paths)[number];
      const res = await get(path, { ...headers, 'X-Request-Id': id });
      expect([res.status, res.header, res.metaId]).toEqual([status, id, id]);
      expect(await lineOf(id)).toEqual(expect.objectContaining({ req_id: id, res: { statusCode: status } }));
    }
  });

  it('makes its own id for anything else, so no client text reaches a header or a log line unchecked', async () => {
    for (const bad of ['', ' ', 'has space', 'quote"inside', 'back\\slash', 'semi;colon', 'x'.repeat(129), 'caf\u00e9', 'a,b']) {
      const res = await get('/api/v1', { Authorization: `Bearer ${key}`, 'X-Request-Id': bad });
      expect(res.status).toBe(200);
      expect(res.header).toMatch(REQUEST_ID_PATTERN);
      expect(res.metaId).toBe(res.header);
      expect((await lineOf(res.header as string))?.req_id).toBe(res.header);
    }
  });

  it('writes the trace id and parent id of a valid traceparent to the access log, and ignores an invalid one', async () => {
    const traced = async (traceparent: string) => {
      const res = await get('/api/v1', { Authorization: `Bearer ${key}`, traceparent });
      expect(res.status).toBe(200);
      return lineOf(res.header as string);
    };
    expect(await traced(`00-${TRACE_ID}-${PARENT_ID}-01`)).toEqual(expect.objectContaining({ trace_id: TRACE_ID, parent_id: PARENT_ID }));
    // a higher version is read by its first four fields (Trace Context, "Versioning of traceparent")
    expect(await traced(`cc-${TRACE_ID}-${PARENT_ID}-01-what-follows`)).toEqual(expect.objectContaining({ trace_id: TRACE_ID }));
    // and the 401 of the scope guard is traced too
    const refused = await fetch(`${api.url}/api/v1/buildings/1000010001`, { headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-00` } });
    expect(refused.status).toBe(401);
    expect((await lineOf(refused.headers.get('x-request-id') as string))?.trace_id).toBe(TRACE_ID);
    for (const bad of [
      `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`, // upper case
      `00-${'0'.repeat(32)}-${PARENT_ID}-01`, // all-zero trace id
      `00-${TRACE_ID}-${'0'.repeat(16)}-01`, // all-zero parent id
      `ff-${TRACE_ID}-${PARENT_ID}-01`, // version ff
      `00-${TRACE_ID}-${PARENT_ID}-01-extra`, // version 00 has exactly four fields
      `cc-${TRACE_ID}-${PARENT_ID}-01x`, // a higher version's flags end the value or a dash follows
      `00-${TRACE_ID.slice(1)}-${PARENT_ID}-01`,
      'garbage',
    ]) {
      const line = await traced(bad);
      expect(line).toBeDefined();
      expect(line).not.toHaveProperty('trace_id');
    }
  });
});
