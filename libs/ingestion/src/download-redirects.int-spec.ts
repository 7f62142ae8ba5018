import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Pool } from 'pg';
import type { IngestInput } from '@bhis/queue';
import { getSource } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { parseConfig } from '@bhis/config';
import { DownloadPolicy, downloadPolicyFor, MAX_DOWNLOAD_REDIRECTS, socrataPolicyFor } from './checked-fetch';
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

  const ingest = async (input: IngestInput, policy: DownloadPolicy = LOCAL_DOWNLOADS, baseUrl = base, urlPolicy?: DownloadPolicy) => {
    const service = new IngestService(pool, new SocrataClient({ baseUrl, retries: 3, policy }), { enforceMinimumRows: false, urlPolicy });
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

  describe('a Socrata host the operator declares a mirror (SOCRATA_ALLOW_PRIVATE_HOST)', () => {
    const config = (env: Record<string, string>) => parseConfig({ SOCRATA_BASE_URL: `${base}/socrata-mirror`, INGEST_URL_HOSTS: '127.0.0.1', ...env });

    it('is off by default: the Socrata client refuses a loopback host', async () => {
      const policy = socrataPolicyFor(config({}));
      expect(policy).toMatchObject({ allowLoopback: false, allowPrivate: false });
      const { error, run } = await ingest({ kind: 'download' }, policy, `${base}/socrata-mirror`);
      expect(error).toBeInstanceOf(PermanentIngestError);
      expect(run?.error).toMatch(/download refused: .*loopback address; downloads may only target public addresses/);
    });

    it('lets the Socrata client reach loopback and private hosts, never link-local; URL downloads stay public-only', async () => {
      const on = config({ SOCRATA_ALLOW_PRIVATE_HOST: 'true' });
      const socrata = socrataPolicyFor(on);
      expect(socrata).toMatchObject({ allowLoopback: true, allowPrivate: true });
      // the mirror answers (404 for the metadata here): the host itself is no longer refused
      const reached = await ingest({ kind: 'download' }, socrata, `${base}/socrata-mirror`, downloadPolicyFor(on));
      expect(reached.run?.error).toMatch(/answered 404/);
      expect(reached.requests).toEqual(['/socrata-mirror/api/views/59kj-x8nc.json']);
      const linkLocal = await ingest({ kind: 'url', url: 'http://169.254.169.254/latest' }, { ...socrata, hosts: ['169.254.169.254'] }, base, { ...socrata, hosts: ['169.254.169.254'] });
      expect(linkLocal.run?.error).toMatch(/download refused: .*link-local/);
      const url = await ingest({ kind: 'url', url: `${base}/data.csv` }, socrata, base, downloadPolicyFor(on));
      expect(url.error).toBeInstanceOf(PermanentIngestError);
      expect(url.run?.error).toMatch(/download refused: .*loopback address; downloads may only target public addresses/);
    });
  });
});
