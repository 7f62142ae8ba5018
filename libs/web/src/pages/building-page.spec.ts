import type { PagesBuilding } from '@bhis/read-api';
import { buildingPage, formatConfidence } from './building-page';
import { historyHref, historyPage } from './history-page';

const DOCUMENT = {
  bbl: '1000010001',
  address: '123 WEST 45 STREET',
  city: 'New York',
  zipcode: '10036',
  borough: 1,
  borough_name: 'Manhattan',
  residential_units: 1200,
  total_units: 1210,
  year_built: 1925,
  building_class: 'D7',
  owner_name: null,
  latitude: 40.7577,
  longitude: -73.9857,
  scores: {
    total_score: 87,
    health_score: 4,
    grade: 'F',
    label: 'Severe',
    scorer_id: 'distress_v10_2',
    peer_group: 'large_prewar',
    data_quality: 'good',
    components: { living_conditions: { score: 91.5, grade: 'F' }, complaint_burden: { score: 40, grade: 'C' } },
    flags: ['ucp-criteria-met'],
  },
  counts: { hpd_violations_open: 1234 },
  confidence: {
    score: 0.92,
    tier: 'high',
    flags: ['stale-source', 'stale-source:dob_now_job_filings'],
    dimensions: { coverage: 0.92 },
    interval: { low: 80, high: 90 },
    reason: null,
    primary_sources: 6,
    active_families: 5,
  },
  published_rules: {
    aep: { met: false, units: 1200, figures: { open_bc_violations_5y: 40, emergency_repair_charges_5y: 0 }, thresholds: { open_bc_violations_5y: 3600, emergency_repair_charges_5y: 2500 } },
    ucp: { met: true, units: 1200, figures: { water_bc_violations_12m: 200 }, thresholds: { water_bc_violations_12m: 180 } },
    watchlist: { met: false, units: 1200, figures: { open_bc_violations: 300 }, thresholds: { open_bc_violations: 2400 } },
  },
};

const BUILDING = {
  document: DOCUMENT,
  explanation: {
    components: { living_conditions: [{ signal: 'water', description: 'Leak and mold violations', contribution: 31.4, count: 12, event_ids: ['9'] }] },
    adjustments: [{ rule: 'ucp-criteria-floor', description: 'UCP criteria met: at least grade D', from: 55, to: 60 }],
  },
  asOf: '2026-11-20',
  scoredAt: '2026-11-21T04:05:00.000Z',
} as unknown as PagesBuilding;

describe('the building page as the server renders it', () => {
  const html = buildingPage({ building: BUILDING, trajectory: [{ as_of: '2026-11-20', scorer_id: 'distress_v10_2', total_score: 87, grade: 'F' }], recent: [], portfolio: null });

  it('shows the confidence as the API gives it, with its tier', () => {
    expect(formatConfidence('high', 0.92)).toBe('High · 0.92');
    expect(html).toContain('High · 0.92');
    expect(html).not.toMatch(/of 100/);
  });

  it('labels the flags from the one table, the stale source by its name', () => {
    expect(html).toContain('<strong>Meets the UCP criteria</strong>');
    expect(html).toContain('<strong>Out of date: DOB NOW: Build Job Application Filings</strong>');
    expect(html).toContain('<code class="slug">ucp-criteria-met</code>');
  });

  it('shows the explanation, the published rules and the dates of the data', () => {
    expect(html).toContain('Leak and mold violations');
    expect(html).toContain('+31.4');
    expect(html).toContain('UCP criteria met: at least grade D: 55 → 60');
    expect(html).toMatch(/data-rule="ucp">.*Met<\/td><td>Water B\/C violations \(12 months\): <strong>200<\/strong> of 180/);
    expect(html).toContain('Data as of <time datetime="2026-11-20">Nov 20, 2026</time>');
    expect(html).toContain('scored <time datetime="2026-11-21T04:05:00.000Z">');
  });

  it('links the full history, draws the map, and loads no script', () => {
    expect(html).toContain('href="/buildings/1000010001/history"');
    expect(html).toContain('<svg class="borough-map"');
    expect(html).toContain('id="map-marker"');
    expect(html).not.toContain('<script');
  });

  it('escapes what comes from the data', () => {
    const hostile = { ...BUILDING, document: { ...DOCUMENT, address: '<img src=x onerror=alert(1)>' } } as unknown as PagesBuilding;
    expect(buildingPage({ building: hostile, trajectory: [], recent: [], portfolio: null })).not.toContain('<img src=x');
  });
});

describe('the building page of a building not scored yet, and of an owner with other buildings', () => {
  it('says it is not scored, without charts, flags or dates', () => {
    const unscored = { document: { ...DOCUMENT, scores: null, counts: null, confidence: null }, explanation: null, asOf: null, scoredAt: null } as unknown as PagesBuilding;
    const html = buildingPage({ building: unscored, trajectory: [], recent: [], portfolio: null });
    expect(html).toContain('This building has not been scored yet.');
    expect(html).toContain('<p class="as-of" id="as-of">Not scored yet.</p>');
    expect(html).not.toContain('id="total-score"');
    expect(html).toContain('No current HPD registration links this building');
  });

  it('shows the portfolio\'s grades and links its worst buildings, with its caution', () => {
    const portfolio = {
      id: 'pf_1',
      buildings: 2,
      units: 60,
      grades: { A: 0, B: 1, C: 0, D: 0, F: 1, ungraded: 0 },
      worst: [
        { bbl: '1000010001', address: '123 WEST 45 STREET', units: 48, grade: 'F', total_score: 87 },
        { bbl: '1000010002', address: '1 & 3 <MAIN>', units: 12, grade: 'B', total_score: 20 },
      ],
      caution: 'Too large to be one owner.',
    };
    const html = buildingPage({ building: BUILDING, trajectory: [], recent: [], portfolio });
    expect(html).toContain('2 buildings, 60 units');
    expect(html).toContain('<li data-grade="F">');
    expect(html).not.toContain('<li data-grade="A">');
    expect(html).toContain('href="/buildings/1000010002"');
    expect(html).toContain('1 &amp; 3 &lt;MAIN&gt;');
    expect(html).toContain('this building');
    expect(html).toContain('<p class="notice">Too large to be one owner.</p>');
  });
});

describe('the history page', () => {
  it('keeps the filters in its links and its form', () => {
    expect(historyHref('1000010001', { source: 'hpd_violations', status: 'open', since: '2025-01-01' }, 'abc.def')).toBe(
      '/buildings/1000010001/history?source=hpd_violations&status=open&since=2025-01-01&cursor=abc.def',
    );
    const html = historyPage({ bbl: '1000010001', address: 'A', query: { status: 'open' }, events: [], next: 'c.d' });
    expect(html).toContain('<option value="open" selected>Open</option>');
    expect(html).toContain('href="/buildings/1000010001/history?status=open&amp;cursor=c.d"');
    expect(html).not.toContain('<script');
  });
});
