import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
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

/** What the first building's report shows beyond the seeded city: real flags, the explanation, the published rules, an owner portfolio. */
async function enrichFirstBuilding(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const [first, second, third] = SEEDED_CITY;
    const rules = {
      aep: { met: false, units: 48, figures: { open_bc_violations_5y: 40, emergency_repair_charges_5y: 0 }, thresholds: { open_bc_violations_5y: 144, emergency_repair_charges_5y: 2500 } },
      ucp: { met: true, units: 48, figures: { water_bc_violations_12m: 12 }, thresholds: { water_bc_violations_12m: 7.2 } },
      watchlist: { met: false, units: 48, figures: { open_bc_violations: 71 }, thresholds: { open_bc_violations: 144 } },
    };
    const explanation = {
      components: { living_conditions: [{ signal: 'water_mold', description: 'Leak and mold violations (B/C)', contribution: 31.4, count: 12, event_ids: ['1'] }] },
      adjustments: [{ rule: 'ucp-criteria-floor', description: 'UCP criteria met: at least grade D', from: 66, to: 71 }],
    };
    await client.query(
      `UPDATE building_scores SET explanation = $2::jsonb,
              document = jsonb_set(jsonb_set(jsonb_set(document::jsonb, '{scores,flags}', $3::jsonb), '{confidence,flags}', $4::jsonb), '{published_rules}', $5::jsonb)::json
        WHERE bbl = $1`,
      [first.bbl, JSON.stringify(explanation), JSON.stringify(['ucp-criteria-met', 'water-damage-recent']), JSON.stringify(['stale-source', 'stale-source:dob_now_job_filings']), JSON.stringify(rules)],
    );
    await client.query(`INSERT INTO owner_portfolios (id, buildings, registrations, links, caution) VALUES ('pf_700001', 3, 3, '[]', NULL)`);
    await client.query(`INSERT INTO building_portfolios (bbl, portfolio_id) VALUES ($1, 'pf_700001'), ($2, 'pf_700001'), ($3, 'pf_700001')`, [first.bbl, second.bbl, third.bbl]);
  } finally {
    await client.end();
  }
}

/** The records of a history page as its rows mark them. */
function historyRows(html: string): { id: string; source: string; status: string; occurredOn: string }[] {
  return [...html.matchAll(/data-event-id="(\d+)" data-source="([a-z0-9_]+)" data-status="([a-z]*)" data-occurred-on="([\d-]*)"/g)].map(([, id, source, status, occurredOn]) => ({ id, source, status, occurredOn }));
}

function nextHref(html: string): string | null {
  const match = /<a href="([^"]+)" id="next-page"/.exec(html);
  return match ? match[1].replace(/&amp;/g, '&') : null;
}

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
    await enrichFirstBuilding(db.url);
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

    // the confidence as the API gives it, the flags by their labels, never a slug broken inside a word
    const confidence = await page.locator('#confidence').textContent();
    expect(confidence).toContain('High · 0.84');
    expect(confidence).not.toContain('of 100');
    expect(await page.locator('#score-flags li strong').allTextContents()).toEqual(['Meets the UCP criteria', 'Recent leak or mold violation']);
    expect(await page.locator('#confidence-flags li strong').allTextContents()).toEqual(['Some data is out of date', 'Out of date: DOB NOW: Build Job Application Filings']);
    const slugLines = await page.locator('code.slug').evaluateAll((codes) => codes.map((c) => c.getClientRects().length));
    expect(slugLines.length).toBeGreaterThan(3);
    expect(slugLines.every((lines) => lines === 1)).toBe(true);

    // dates, explanation, published rules
    expect(await page.locator('#as-of').textContent()).toMatch(/^Data as of Nov 20, 2026 · scored /);
    expect(await page.locator('#explanation').textContent()).toContain('Leak and mold violations (B/C)');
    expect(await page.locator('#published-rules tr[data-rule="ucp"] .rule-result').textContent()).toBe('Met');
    expect(await page.locator('#published-rules tr[data-rule="aep"] .rule-result').textContent()).toBe('Not met');

    // the map: drawn from the shipped outlines, the marker inside the outline of the building's borough
    const map = page.locator('#map svg.borough-map');
    await map.scrollIntoViewIfNeeded();
    expect(await map.isVisible()).toBe(true);
    const box = await map.boundingBox();
    expect(box?.width).toBeGreaterThan(150);
    const placement = await page.evaluate(() => {
      const marker = document.getElementById('map-marker') as unknown as SVGCircleElement;
      const svgRoot = marker.ownerSVGElement as SVGSVGElement;
      const point = svgRoot.createSVGPoint();
      point.x = marker.cx.baseVal.value;
      point.y = marker.cy.baseVal.value;
      const inside = Array.from(document.querySelectorAll<SVGPathElement>('#map path.borough')).filter((p) => p.isPointInFill(point)).map((p) => p.dataset['borough']);
      const rect = marker.getBoundingClientRect();
      const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
      return { inside, hit: hit?.id ?? hit?.getAttribute('class') };
    });
    expect(placement).toEqual({ inside: ['1'], hit: 'map-marker' });
    // the screenshot itself: the marker's red at the marker, the outlines' fill over a good part of the map
    const shot = await map.screenshot({ path: join(ARTIFACTS, 'building-map.png') });
    const marker = await page.locator('#map-marker').boundingBox();
    const pixels = await page.evaluate(
      async ({ png, at }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${png}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const context2d = canvas.getContext('2d') as CanvasRenderingContext2D;
        context2d.drawImage(image, 0, 0);
        const all = context2d.getImageData(0, 0, image.width, image.height).data;
        let shaded = 0;
        for (let i = 0; i < all.length; i += 4) if (all[i] < 240 || all[i + 1] < 240 || all[i + 2] < 240) shaded++;
        const [r, g, b] = context2d.getImageData(Math.round(at.x), Math.round(at.y), 1, 1).data;
        return { marker: [r, g, b], shadedShare: shaded / (all.length / 4) };
      },
      { png: shot.toString('base64'), at: { x: (marker?.x ?? 0) - (box?.x ?? 0) + (marker?.width ?? 0) / 2, y: (marker?.y ?? 0) - (box?.y ?? 0) + (marker?.height ?? 0) / 2 } },
    );
    expect(pixels.marker[0]).toBeGreaterThan(150);
    expect(pixels.marker[1]).toBeLessThan(100);
    expect(pixels.shadedShare).toBeGreaterThan(0.2);

    // the owner's other buildings, linked
    const portfolio = page.locator('#portfolio');
    expect(await portfolio.textContent()).toContain('3 buildings');
    expect(await portfolio.locator('.grade-distribution li').count()).toBeGreaterThan(0);
    expect(await portfolio.locator('ol.worst a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(
      [...SEEDED_CITY].sort((a, b) => b.score - a.score).map((b) => `/buildings/${b.bbl}`),
    );
    expect(await page.locator('#history-link').getAttribute('href')).toBe(`/buildings/${building.bbl}/history`);

    await page.screenshot({ path: join(ARTIFACTS, 'building-report.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(ARTIFACTS, 'building-report-mobile.png'), fullPage: true });
    // on a phone too, each slug stays on one line and no label is cut inside a word
    expect(await page.locator('code.slug').evaluateAll((codes) => codes.every((c) => c.getClientRects().length === 1 && c.scrollWidth <= c.parentElement!.clientWidth))).toBe(true);
    const flagWords = await page.locator('#flags li strong, #confidence-flags li strong').evaluateAll((labels) =>
      labels.flatMap((label) => {
        const range = document.createRange();
        const text = label.firstChild as Text;
        const broken: string[] = [];
        for (const word of label.textContent!.matchAll(/\S+/g)) {
          range.setStart(text, word.index);
          range.setEnd(text, word.index + word[0].length);
          if (range.getClientRects().length > 1) broken.push(word[0]);
        }
        return broken;
      }),
    );
    expect(flagWords).toEqual([]);
    await page.locator('#flags').screenshot({ path: join(ARTIFACTS, 'building-flags-mobile.png') });
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
    // rendered on the server: no script, no config
    expect(await page.locator('script').count()).toBe(0);
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

  it('answers 404 with a page for a BBL that is malformed or not in the data set', async () => {
    for (const path of ['/buildings/nonsense', '/buildings/123', '/buildings/6000010001', '/buildings/1000010001', '/buildings/1000010001/history', '/buildings/12/history']) {
      const response = await fetch(`${api.url}${path}`);
      expect([path, response.status, response.headers.get('content-type')]).toEqual([path, 404, 'text/html; charset=utf-8']);
      const text = await response.text();
      expect(text).toContain('<h1>Not found</h1>');
    }
    // not watched: its own answer is the 404 it expects
    const page = await context.newPage();
    const response = await page.goto(`${api.url}/buildings/1000010001`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('#not-found').textContent()).toBe('No building with BBL 1000010001 in the data set.');
    await page.screenshot({ path: join(ARTIFACTS, 'building-not-found.png') });
    await page.close();
  });

  it('filters the record history on the server, by source, status and dates, one page after the other', async () => {
    const building = SEEDED_CITY[0];
    const get = async (query: string) => {
      const response = await fetch(`${api.url}/buildings/${building.bbl}/history${query}`);
      return { status: response.status, html: await response.text() };
    };
    const all = await get('');
    expect(all.status).toBe(200);
    const first = historyRows(all.html);
    expect(first).toHaveLength(25);
    const next = nextHref(all.html);
    expect(next).toMatch(/^\/buildings\/\d{10}\/history\?cursor=/);
    const second = historyRows((await get(next!.replace(/^[^?]*/, ''))).html);
    expect(second).toHaveLength(building.events - 25);
    expect(new Set([...first, ...second].map((r) => r.id)).size).toBe(building.events);

    const bySource = historyRows((await get('?source=hpd_violations')).html);
    expect(bySource.length).toBe(Math.ceil(building.events / 4));
    expect(new Set(bySource.map((r) => r.source))).toEqual(new Set(['hpd_violations']));

    const open = await get('?status=open&source=&since=&until=');
    expect(historyRows(open.html).map((r) => r.status)).toEqual(Array(building.events / 2).fill('open'));

    const dated = historyRows((await get('?since=2026-06-01&until=2026-09-30')).html);
    expect(dated.length).toBeGreaterThan(0);
    expect(dated.every((r) => r.occurredOn >= '2026-06-01' && r.occurredOn <= '2026-09-30')).toBe(true);

    // the filters stay on the next page's link, and a cursor of other filters is refused
    const paged = await get('?status=closed');
    expect(historyRows(paged.html)).toHaveLength(building.events / 2);
    const openPage = await get('?status=open');
    expect(nextHref(openPage.html)).toBeNull();
    const cursor = /cursor=([^"&]+)/.exec(all.html)?.[1] ?? '';
    const moved = await get(`?status=open&cursor=${cursor}`);
    expect(moved.status).toBe(400);

    for (const bad of ['?source=nope', '?status=sometimes', '?since=2026-13-01', '?since=2026-05-01&until=2026-01-01']) {
      const refused = await get(bad);
      expect([bad, refused.status]).toEqual([bad, 400]);
      expect(refused.html).toContain('id="bad-request"');
    }
  });

  it('filters the record history with the form, without JavaScript', async () => {
    const building = SEEDED_CITY[0];
    const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    try {
      const plain = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1200, height: 900 } });
      const page = await plain.newPage();
      watch(page);
      await page.goto(`${api.url}/buildings/${building.bbl}`);
      await page.locator('#history-link').click();
      await page.waitForURL(`**/buildings/${building.bbl}/history`);
      await page.locator('#filter-source').selectOption('hpd_violations');
      await page.locator('#filter-status').selectOption('open');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/status=open/);
      const rows = await page.locator('#history tr[data-event-id]').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-source'), tr.getAttribute('data-status')]));
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every(([source, status]) => source === 'hpd_violations' && status === 'open')).toBe(true);
      expect(await page.locator('#filter-status').inputValue()).toBe('open');
      await page.screenshot({ path: join(ARTIFACTS, 'building-history-filtered.png'), fullPage: true });
      await plain.close();
    } finally {
      await browser.close();
    }
  });

  it('shows tiles only from the tile server the operator configures, and allows only its origin', async () => {
    const building = SEEDED_CITY[0];
    const withTiles = await startTestApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), WEB_MAP_TILE_URL: 'https://tiles.example.org/osm/{z}/{x}/{y}.png', WEB_MAP_TILE_ATTRIBUTION: '© OpenStreetMap contributors' });
    try {
      const response = await fetch(`${withTiles.url}/buildings/${building.bbl}`);
      expect(response.headers.get('content-security-policy')).toContain("img-src 'self' data: https://tiles.example.org;");
      const html = await response.text();
      expect(html).toContain('href="https://tiles.example.org/osm/16/19299/24629.png"');
      expect(html).toContain('© OpenStreetMap contributors');
    } finally {
      await withTiles.close();
    }
    const plain = await fetch(`${api.url}/buildings/${building.bbl}`);
    expect(plain.headers.get('content-security-policy')).toContain("img-src 'self' data:;");
    expect(await plain.text()).not.toContain('tiles.example.org');
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
    expect(await page.locator('main').textContent()).not.toContain('Generated by renderMethodology');
    await page.close();
  });

  it('made no request to another host and none failed', () => {
    expect(foreignRequests).toEqual([]);
    expect(failures).toEqual([]);
  });
});
