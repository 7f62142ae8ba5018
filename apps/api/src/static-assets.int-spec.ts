import { readFileSync } from 'node:fs';
import { get, IncomingHttpHeaders } from 'node:http';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PrecompressedAssets } from '@bhis/web';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { startTestApi, TestApi } from './testing/test-api';

/** The raw bytes of a GET (fetch would decompress them). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('static assets: compressed once per process, not per request', () => {
  let db: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
  });

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('serves the Swagger UI bundle gzipped from bytes compressed once, with one ETag, and as it is on disk to a client without gzip', async () => {
    const onDisk = readFileSync(join(dirname(require.resolve('swagger-ui-dist/package.json')), 'swagger-ui-bundle.js'));
    const url = `${api.url}/assets/swagger-ui/swagger-ui-bundle.js`;
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await rawGet(url, { 'Accept-Encoding': 'gzip, deflate, br' }));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['vary']).toMatch(/Accept-Encoding/i);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(gunzipSync(res.body).equals(onDisk)).toBe(true);
      expect(res.headers.etag).toBe(answers[0]?.headers.etag);
    }
    const plain = await rawGet(url, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(onDisk)).toBe(true);
    const notModified = await rawGet(url, { 'If-None-Match': String(answers[0]?.headers.etag), 'Accept-Encoding': 'gzip' });
    expect([notModified.status, notModified.body.length]).toEqual([304, 0]);
    await rawGet(`${api.url}/assets/swagger-ui/swagger-ui.css`, { 'Accept-Encoding': 'gzip' });
    // one compression per file for the life of the process
    expect(api.app.get(PrecompressedAssets).compressions).toBe(2);
  });
});
