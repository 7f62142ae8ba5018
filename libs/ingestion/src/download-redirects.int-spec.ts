import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Pool } from 'pg';
import type { IngestInput } from '@bhis/queue';
import { getSource } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { DownloadPolicy, MAX_DOWNLOAD_REDIRECTS } from './checked-fetch';
import { IngestService, PermanentIngestError } from './ingest-service';
import { SocrataClient } from './socrata';
import { LOCAL_DOWNLOADS } from './testing/fake-open-data';
import { seedUniverseFor, SHARED_FIXTURES } from './testing/fixtures';
import { createRun, getRun, syncSourceCatalog } from '@bhis/runs';

const FIXTURE = path.join(SHARED_FIXTURES, 'hpd_litigations.csv');

describe('downloads check every redirect hop', () => {
  let db: TestDatabase;
  let pool: Pool;
  let server: Server;
  let base = '';
  const requests: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await syncSourceCatalog(pool);
    await seedUniverseFor(pool, getSource('hpd_litigations'), FIXTURE);
    const csv = readFileSync(FIXTURE);
    server = createServer((req, res) => {
      const url = req.url ?? '/';
      requests.push(url);
      const port = (server.address() as AddressInfo).port;
      const redirect = (to: string) => res.writeHead(302, { location: to }).end();
      if (url === '/data.csv') return res.writeHead(200, { 'content-type': 'text/csv' }).end(csv);
      if (url === '/to-same-host') return redirect('/data.csv');
      // the same server under another name: only the host check can refuse it
      if (url === '/to-other-host') return redirect(`http://localhost:${port}/data.csv`);
      if (url === '/to-private') return redirect('http://10.0.0.1/data.csv');
      if (url === '/loop') return redirect('/loop');
      if (url.startsWith('/socrata/')) return redirect(`http://localhost:${port}${url}`);
      return res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await pool?.end();
    await db?.drop();
  });

  const ingest = async (input: IngestInput, policy: DownloadPolicy = LOCAL_DOWNLOADS, baseUrl = base) => {
    const service = new IngestService(pool, new SocrataClient({ baseUrl, retries: 3, policy }), { enforceMinimumRows: false });
    const runId = await createRun(pool, { source: 'hpd_litigations', trigger: 'test', input: input.kind });
    const before = requests.length;
    const outcome = await service.run({ runId, source: 'hpd_litigations', input, observedOn: '2026-11-23', lastAttempt: false }).then(
      (result) => ({ result, error: null }),
      (error: unknown) => ({ result: null, error }),
    );
    return { ...outcome, run: await getRun(pool, runId), requests: requests.slice(before) };
  };

  it('follows a redirect that stays on a configured host', async () => {
    const { result, requests: seen } = await ingest({ kind: 'url', url: `${base}/to-same-host` });
    expect(result?.status).toBe('succeeded');
    expect(seen).toEqual(['/to-same-host', '/data.csv']);
  });

  it('refuses a redirect to a host that is not configured, at once and for good', async () => {
    const { error, run, requests: seen } = await ingest({ kind: 'url', url: `${base}/to-other-host` });
    expect(error).toBeInstanceOf(PermanentIngestError);
    expect(run?.status).toBe('failed');
    expect(run?.error).toMatch(/download refused: host "localhost" is not one of the configured source hosts/);
    expect(seen).toEqual(['/to-other-host']);
  });

  it('refuses a redirect to a private address even on a configured host', async () => {
    const { error, run } = await ingest({ kind: 'url', url: `${base}/to-private` }, { hosts: ['127.0.0.1', '10.0.0.1'], allowLoopback: true });
    expect(error).toBeInstanceOf(PermanentIngestError);
    expect(run?.error).toMatch(/download refused: .*10\.0\.0\.1.* private.*downloads may only target public addresses/);
  });

  it('refuses loopback by default', async () => {
    const { error, run, requests: seen } = await ingest({ kind: 'url', url: `${base}/data.csv` }, { hosts: ['127.0.0.1'], allowLoopback: false });
    expect(error).toBeInstanceOf(PermanentIngestError);
    expect(run?.error).toMatch(/download refused: .*loopback/);
    expect(seen).toEqual([]);
  });

  it('stops after a bounded number of redirects', async () => {
    const { error, run, requests: seen } = await ingest({ kind: 'url', url: `${base}/loop` });
    expect(error).toBeInstanceOf(PermanentIngestError);
    expect(run?.error).toMatch(new RegExp(`more than ${MAX_DOWNLOAD_REDIRECTS} redirects`));
    expect(seen).toHaveLength(MAX_DOWNLOAD_REDIRECTS + 1);
  });

  it('checks the redirects of Open Data requests too, without retrying a refusal', async () => {
    const { error, run, requests: seen } = await ingest({ kind: 'download' }, LOCAL_DOWNLOADS, `${base}/socrata`);
    expect(error).toBeInstanceOf(PermanentIngestError);
    expect(run?.error).toMatch(/download refused: host "localhost"/);
    expect(seen).toHaveLength(1);
  });
});
