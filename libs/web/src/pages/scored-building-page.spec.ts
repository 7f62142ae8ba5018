import { SOURCE_KEYS, type SourceKey } from '@bhis/sources';
import type { PagesBuilding } from '@bhis/read-api';
import { buildingDocument, countsOf, type BuildingInput, type HistogramRow, scoreBuilding, type SourceFreshnessMap } from '@bhis/scoring';
import { buildingPage } from './building-page';

const AS_OF = '2025-06-30';

function row(partial: Partial<HistogramRow> & Pick<HistogramRow, 'source' | 'event_type'>): HistogramRow {
  return { category: 'water_damage', severity: 'high', open: true, scoring_excluded: false, age_bucket: '0-3m', count: 6, amount: 0, newest_event_ids: ['3', '2', '1'], newest_occurred_on: '2025-06-01', ...partial };
}

/** The report of a building as the scorer documents it, not a hand-made document. */
function scoredBuilding(): PagesBuilding {
  // every source fresh but one, which was never loaded: a stale-source flag
  const sources: SourceFreshnessMap = Object.fromEntries(
    SOURCE_KEYS.map((key: SourceKey) => [key, key === 'dob_now_job_filings' ? { last_refreshed_at: null, latest_record_date: null, cadence: 'daily' } : { last_refreshed_at: `${AS_OF}T04:00:00Z`, latest_record_date: AS_OF, cadence: 'daily' }]),
  );
  const input: BuildingInput = {
    building: { bbl: '1000010001', residential_units: 30, total_units: 31, year_built: 1925, building_class: 'C1', num_buildings: 1, in_hpd_jurisdiction: true, hpd_legal_units: 30, registration_end_date: '2026-09-01' },
    as_of: AS_OF,
    histogram: [
      row({ source: 'hpd_violations', event_type: 'hpd_violation', severity: 'critical', count: 40 }),
      row({ source: 'hpd_violations', event_type: 'hpd_violation', category: 'mold', count: 30 }),
      row({ source: 'hpd_complaints', event_type: 'hpd_complaint', category: 'heat_hot_water', severity: 'medium', count: 25 }),
      row({ source: 'nyc311', event_type: 'complaint_311', category: 'heat_hot_water', severity: 'medium', count: 12 }),
    ],
    sources,
    aggregates: { heat_season_complaints: 20 },
  };
  const score = scoreBuilding(input);
  const facts = { bbl: '1000010001', borough: 1, address: '1 MAIN STREET', city: 'New York', zipcode: '10001', residential_units: 30, total_units: 31, year_built: 1925, building_class: 'C1', owner_name: 'MAIN LLC', latitude: 40.75, longitude: -73.99 };
  return { document: buildingDocument(facts, score, countsOf(input.histogram), 20), explanation: score.explanation, asOf: AS_OF, scoredAt: `${AS_OF}T05:00:00.000Z` };
}

describe('the building page of a building as the scorer documents it', () => {
  const building = scoredBuilding();
  const html = buildingPage({ building, trajectory: [], recent: [], portfolio: null });

  it('shows every part with nothing missing', () => {
    expect(html).not.toMatch(/undefined|NaN|\[object Object\]/);
    for (const rule of ['aep', 'ucp', 'watchlist']) expect(html).toContain(`data-rule="${rule}"`);
    const explained = Object.entries(building.explanation?.components ?? {}).filter(([, signals]) => signals.length > 0);
    expect(explained.length).toBeGreaterThan(0);
    for (const [component] of explained) expect(html).toContain(`class="explained" data-component="${component}"`);
  });

  it('labels every flag it carries', () => {
    const document = building.document as { scores: { flags: string[] }; confidence: { flags: string[] } };
    expect(document.confidence.flags).toContain('stale-source:dob_now_job_filings');
    for (const slug of [...document.scores.flags, ...document.confidence.flags]) {
      const item = new RegExp(`<li data-flag="${slug}"><strong>([^<]+)</strong> <span>[^<]+</span> <code class="slug">${slug}</code></li>`).exec(html);
      expect([slug, item !== null && item[1] !== slug]).toEqual([slug, true]);
    }
  });
});
