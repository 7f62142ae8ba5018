import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { seedCity, SEEDED_CITY } from './testing/seed-city';
import { createTestKey, startTestApi, TestApi } from './testing/test-api';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const ARTIFACTS = resolve(__dirname, '../../../test-artifacts');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

jest.setTimeout(60_000);

/** The pages in a real browser (Debian's Chromium) against the API on a seeded city. */
describe('web pages in a browser', () => {
  let db: TestDatabase;
  let api: TestApi;
  let context: BrowserContext;
  let profile: string;
  const foreignRequests: string[] = [];
  const failures: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (or set CHROMIUM_PATH)`);
    db = await createTestDatabase();
    await seedCity(db.url);
    api = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() });
    profile = mkdtempSync(join(tmpdir(), 'bhis-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1200, height: 900 } });
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await api?.close();
    await db?.drop();
  });

  function watch(page: Page): void {
    const origin = new URL(api.url).origin;
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(origin) && !url.startsWith('data:')) foreignRequests.push(url);
    });
    page.on('requestfailed', (request) => failures.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`));
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.url()}: HTTP ${response.status()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
  }

  it('searches an address and shows the building report with the API\'s numbers', async () => {
    const building = SEEDED_CITY[0];
    const page = await context.newPage();
    watch(page);
    await page.goto(`${api.url}/`);
    await page.getByLabel('Search by address').fill('123 w 45th st');
    await page.getByRole('button', { name: 'Search' }).click();
    const result = page.locator(`a[href="/buildings/${building.bbl}"]`);
    await result.waitFor();
    expect(await result.textContent()).toContain(building.address);
    await page.screenshot({ path: join(ARTIFACTS, 'building-search.png'), fullPage: true });

    await result.click();
    await page.waitForURL(`**/buildings/${building.bbl}`);
    await page.locator('#total-score').waitFor();
    expect(await page.locator('#report-title').textContent()).toBe(building.address);
    expect(await page.locator('#total-score').textContent()).toBe(String(building.score));
    expect(await page.locator('#grade .badge').textContent()).toBe('F');
    expect(await page.locator('#score-caveat').textContent()).toContain('a ranking signal, not a verdict');

    const bars = await page.locator('#components-chart rect.bar').evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('data-score'))));
    expect(bars).toEqual(building.components);
    const points = await page.locator('#trajectory-chart circle.point').evaluateAll((circles) => circles.map((c) => Number(c.getAttribute('data-score'))));
    expect(points).toEqual(building.history.map((h) => h.score));

    const sourceLinks = page.locator('#events a.source-link');
    expect(await sourceLinks.count()).toBeGreaterThan(0);
    expect(await sourceLinks.first().getAttribute('href')).toMatch(/^https:\/\//);
    expect(await page.locator('#confidence').textContent()).toContain('92%');

    await page.screenshot({ path: join(ARTIFACTS, 'building-report.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(ARTIFACTS, 'building-report-mobile.png'), fullPage: true });
    await page.close();
  });

  it('hands no key to the browser, and keeps working once a demo key is exhausted', async () => {
    const building = SEEDED_CITY[0];
    for (const path of ['/', `/buildings/${building.bbl}`, '/buildings/nonsense', '/assets/web/app.js']) {
      const text = await (await fetch(`${api.url}${path}`)).text();
      expect(text).not.toMatch(/sk_(demo|live)_|apiKey|X-API-Key/);
    }
    // a developer's demo key used up: 429 for it
    const demo = await createTestKey(db.url, { kind: 'demo' });
    let status = 0;
    for (let i = 0; i < 200 && status !== 429; i++) {
      status = (await fetch(`${api.url}/api/v1/buildings/${building.bbl}`, { headers: { 'X-API-Key': demo.key } })).status;
    }
    expect(status).toBe(429);

    const page = await context.newPage();
    watch(page);
    await page.goto(`${api.url}/buildings/${building.bbl}`);
    expect(await page.locator('#bhis-config').textContent()).toBe(JSON.stringify({ bbl: building.bbl }));
    await page.locator('#total-score').waitFor();
    expect(await page.locator('#total-score').textContent()).toBe(String(building.score));
    await page.close();
  });

  it('charges the pages\' data to the visitor\'s address, each visitor on its own', async () => {
    const limited = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), RATE_LIMIT_ANONYMOUS_PER_MIN: '3', TRUST_PROXY: 'loopback' });
    const from = (address: string) => fetch(`${limited.url}/web/data/buildings/${SEEDED_CITY[0].bbl}`, { headers: { 'X-Forwarded-For': address } }).then((r) => r.status);
    try {
      const first = [];
      for (let i = 0; i < 4; i++) first.push(await from('203.0.113.10'));
      expect(first).toEqual([200, 200, 200, 429]);
      expect(await from('203.0.113.11')).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('renders the API reference and the methodology from local files only', async () => {
    const page = await context.newPage();
    watch(page);
    await page.goto(`${api.url}/docs`);
    await page.locator('.swagger-ui .opblock').first().waitFor();
    expect(await page.locator('.swagger-ui .opblock').count()).toBeGreaterThan(15);
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference.png') });

    await page.goto(`${api.url}/methodology`);
    expect(await page.locator('h1').first().textContent()).toContain('Methodology');
    await page.close();
  });

  it('made no request to another host and none failed', () => {
    expect(foreignRequests).toEqual([]);
    expect(failures).toEqual([]);
  });
});
