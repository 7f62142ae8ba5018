import { parse } from 'csv-parse/sync';
import { Pool } from 'pg';
import { SOURCES } from '@bhis/sources';
import { createTestDatabase, poll, TestDatabase, testRedisPrefix } from '@bhis/testing';
import type { PortfolioAnalysis } from './analyze/portfolio-analysis';
import { CSV_COLUMNS } from './export/csv-columns';
import type { SourceStatus } from '@bhis/runs';
import { call, createKeys, dataOf, errorOf, PortfolioTestApi, startPortfolioApi } from './testing/portfolio-test-api';
import { seedBuildings, seedComponents, writeDocuments } from './testing/seed-buildings';

describe('portfolio analysis, CSV export and sources (real Postgres and Redis)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let api: PortfolioTestApi;
  let key: string;
  let noPortfolioKey: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    api = await startPortfolioApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), RATE_LIMIT_LIVE_PER_MIN: '1000000' });
    [{ key }, { key: noPortfolioKey }] = await createKeys(db.url, [
      { name: 'portfolio' },
      { name: 'buildings only', scopes: ['buildings:read'] },
    ]);
    await seedBuildings(pool, [
      { bbl: '1000010001', units: 10, owner: 'SMITH, JOHN "JACK"', score: { total: 90, grade: 'F', flags: ['fdny-vacate-active', 'open-class-c'] } },
      { bbl: '1000010002', units: 20, owner: 'ACME\nHOLDINGS LLC', score: { total: 70, grade: 'D', flags: ['open-class-c'] } },
      { bbl: '1000010003', units: 30, owner: 'PLAIN OWNER', score: { total: 50, grade: 'C' } },
      { bbl: '1000010004', units: 0, score: { total: 30, grade: 'B' } },
      { bbl: '1000010005', units: 40, score: { total: 10, grade: 'A' } },
      { bbl: '1000010006', units: 5 }, // a building without a score
      { bbl: '2000010007', units: 400, score: { total: 64, grade: 'D', flags: ['public-housing'] } },
    ]);
  });

  afterAll(async () => {
    await api?.close();
    await pool?.end();
    await db?.drop();
  });

  describe('POST /portfolio/analyze', () => {
    it('computes the documented aggregates (checked by hand)', async () => {
      const res = await call(api.url, key, 'POST', '/api/v1/portfolio/analyze', {
        bbls: ['1000010001', '1000010002', '1000010003', '1000010004', '1000010005', '1000010001', '1000010006', '1999990001', 'abc', 123, '0000010001', 'abc'],
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-cost')).toBe('5');
      const data = dataOf<PortfolioAnalysis>(res);
      expect(data.summary).toEqual({ requested: 10, found: 5, not_found: 2, invalid: 3, residential_units: 100 });
      expect(data.not_found).toEqual(['1000010006', '1999990001']);
      for (const grade of ['A', 'B', 'C', 'D', 'F'] as const) expect(data.grade_distribution[grade]).toEqual({ count: 1, share: 0.2 });
      // scores 10, 30, 50, 70, 90; units 40, 0, 30, 20, 10
      expect(data.risk_metrics).toEqual({
        mean: 50,
        median: 50,
        p90: 82, // 70 + 0.6 * (90 - 70)
        unit_weighted_mean: 42, // (90*10 + 70*20 + 50*30 + 30*0 + 10*40) / 100
        share_buildings_d_or_f: 0.4,
        share_units_d_or_f: 0.3, // (10 + 20) / 100
      });
      expect(data.component_means.living_conditions).toBe(25);
      expect(Object.keys(data.component_means)).toHaveLength(7);
      expect(data.flag_summary).toEqual({ 'open-class-c': 2, 'fdny-vacate-active': 1 });
      expect(Object.keys(data.flag_summary)).toEqual(['open-class-c', 'fdny-vacate-active']);
      expect(data.worst_buildings.map((b) => b.bbl)).toEqual(['1000010001', '1000010002', '1000010003', '1000010004', '1000010005']);
      expect(data.worst_buildings[0]).toEqual({
        bbl: '1000010001',
        address: '1 TEST STREET',
        total_score: 90,
        grade: 'F',
        flags: ['fdny-vacate-active', 'open-class-c'],
      });
    });

    it('lists buildings the model cannot know apart from the worst buildings', async () => {
      const data = dataOf<PortfolioAnalysis>(
        await call(api.url, key, 'POST', '/api/v1/portfolio/analyze', { bbls: ['1000010003', '2000010007', '1000010005'] }),
      );
      expect(data.worst_buildings.map((b) => b.bbl)).toEqual(['1000010003', '1000010005']);
      expect(data.uncertain_buildings).toEqual([{ bbl: '2000010007', address: expect.any(String), total_score: 64, grade: 'D', flags: ['public-housing'] }]);
    });

    it('answers an all-unknown portfolio with zeros and nulls', async () => {
      const data = dataOf<PortfolioAnalysis>(await call(api.url, key, 'POST', '/api/v1/portfolio/analyze', { bbls: ['1999990001'] }));
      expect(data.summary).toEqual({ requested: 1, found: 0, not_found: 1, invalid: 0, residential_units: 0 });
      expect(data.risk_metrics.mean).toBeNull();
      expect(data.risk_metrics.share_buildings_d_or_f).toBe(0);
      expect(data.grade_distribution.F).toEqual({ count: 0, share: 0 });
      expect(data.worst_buildings).toEqual([]);
      expect(data.flag_summary).toEqual({});
    });

    it('refuses more than 10,000 BBLs with too_many_bbls stating the limit and the count', async () => {
      const bbls = Array.from({ length: 10_001 }, (_, i) => `1${String(i + 1).padStart(5, '0')}0001`);
      const res = await call(api.url, key, 'POST', '/api/v1/portfolio/analyze', { bbls });
      expect(res.status).toBe(400);
      expect(errorOf(res).code).toBe('too_many_bbls');
      expect(errorOf(res).message).toMatch(/10,000.*10,001/);
    });

    it('refuses a missing or empty list and needs portfolio:read', async () => {
      expect(errorOf(await call(api.url, key, 'POST', '/api/v1/portfolio/analyze', {})).code).toBe('invalid_request');
      expect(errorOf(await call(api.url, key, 'POST', '/api/v1/portfolio/analyze', { bbls: [] })).code).toBe('invalid_request');
      expect(errorOf(await call(api.url, key, 'POST', '/api/v1/portfolio/analyze', { bbls: ['1000010001'], extra: 1 })).code).toBe('invalid_request');
      const forbidden = await call(api.url, noPortfolioKey, 'POST', '/api/v1/portfolio/analyze', { bbls: ['1000010001'] });
      expect(forbidden.status).toBe(403);
    });
  });

  describe('POST /export/csv', () => {
    function parseCsv(text: string): string[][] {
      return parse(text, { relax_column_count: false }) as string[][];
    }

    it('streams CSV with a header row and correct quoting, in request order', async () => {
      const res = await call(api.url, key, 'POST', '/api/v1/export/csv', {
        bbls: ['1000010002', '1000010001', '1999990001', 'junk', '1000010006', '1000010002'],
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="bhis-export-\d{8}-\d{6}\.csv"$/);
      expect(res.headers.get('x-ratelimit-limit')).toBe('1000000');
      expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
      expect(res.headers.get('x-ratelimit-reset')).not.toBeNull();
      // what has no row is said, not dropped silently: not in the data set, not scored yet, not a BBL, repeated
      expect(res.headers.get('x-export-not-found')).toBe('2');
      expect(res.headers.get('x-export-not-found-bbls')).toBe('1999990001,1000010006');
      expect(res.headers.get('x-export-invalid')).toBe('1');
      expect(res.headers.get('x-export-duplicates')).toBe('1');

      const [header, ...rows] = parseCsv(res.text);
      expect(header).toEqual(CSV_COLUMNS);
      expect(rows).toHaveLength(2);
      const record = (row: string[]) => Object.fromEntries(header.map((h, i) => [h, row[i]]));
      const [acme, smith] = rows.map(record);
      expect(smith.owner_name).toBe('SMITH, JOHN "JACK"');
      expect(acme.owner_name).toBe('ACME\nHOLDINGS LLC');
      expect(smith).toMatchObject({
        bbl: '1000010001',
        address: '1 TEST STREET',
        borough: '1',
        zipcode: '10001',
        residential_units: '10',
        total_score: '90',
        health_score: '10',
        grade: 'F',
        label: 'label F',
        living_conditions_score: '45',
        legal_enforcement_score: '45',
        hpd_violations_total: '10',
        total_events: '27',
        confidence_score: '0.8',
        confidence_tier: 'high',
        flags: 'fdny-vacate-active;open-class-c',
        scorer_id: 'distress_v10_2',
        as_of: '2026-11-20',
      });
    });

    it('exports by search filters, worst first', async () => {
      const res = await call(api.url, key, 'POST', '/api/v1/export/csv', { grade: 'D,F', borough: 'manhattan' });
      expect(res.status).toBe(200);
      const [, ...rows] = parseCsv(res.text);
      expect(rows.map((r) => r[0])).toEqual(['1000010001', '1000010002']);
      expect(res.headers.get('x-export-not-found')).toBeNull();
      const byOwner = await call(api.url, key, 'POST', '/api/v1/export/csv', { owner: 'smith, john', min_score: 80 });
      expect(parseCsv(byOwner.text).slice(1).map((r) => r[0])).toEqual(['1000010001']);
    });

    it('leaves out a score row that no run has written a document for, as the read API does', async () => {
      await pool.query(`INSERT INTO buildings (bbl, borough, block, lot, address, address_search) VALUES ('4000010001', 4, 1, 1, '1 EMPTY ROAD', '1 EMPTY ROAD')`);
      await pool.query(
        `INSERT INTO building_scores (bbl, run_id, as_of, scorer_id, total_score, health_score, grade, label, components, flags, scores, counts, confidence)
         VALUES ('4000010001', gen_random_uuid(), '2026-11-20', 'distress_v10_2', 99, 1, 'F', 'Severe', '{}', '{}', '{}', '{}', '{}')`,
      );
      try {
        const res = await call(api.url, key, 'POST', '/api/v1/export/csv', { bbls: ['4000010001', '1000010003'] });
        expect(res.status).toBe(200);
        expect(parseCsv(res.text).slice(1).map((r) => r[0])).toEqual(['1000010003']);
        expect([res.headers.get('x-export-not-found'), res.headers.get('x-export-not-found-bbls')]).toEqual(['1', '4000010001']);
      } finally {
        await pool.query(`DELETE FROM buildings WHERE bbl = '4000010001'`);
      }
    });

    it('names the first 100 BBLs without a row and counts them all', async () => {
      const unknown = Array.from({ length: 150 }, (_, i) => `3${String(i + 1).padStart(5, '0')}0001`);
      const res = await call(api.url, key, 'POST', '/api/v1/export/csv', { bbls: ['1000010003', ...unknown] });
      expect(res.status).toBe(200);
      expect(parseCsv(res.text).slice(1).map((r) => r[0])).toEqual(['1000010003']);
      expect(res.headers.get('x-export-not-found')).toBe('150');
      expect(res.headers.get('x-export-not-found-bbls')?.split(',')).toEqual(unknown.slice(0, 100));
      const none = await call(api.url, key, 'POST', '/api/v1/export/csv', { bbls: ['1000010003'] });
      expect([none.headers.get('x-export-not-found'), none.headers.get('x-export-not-found-bbls'), none.headers.get('x-export-invalid')]).toEqual(['0', '', '0']);
    });

    it('streams large exports through the cursor (more rows than one fetch)', async () => {
      await pool.query(
        `INSERT INTO buildings (bbl, borough, block, lot, address, address_search, residential_units)
         SELECT '3' || lpad(g::text, 5, '0') || '0001', 3, g, 1, g || ' BULK AVENUE', g || ' BULK AVENUE', g % 50 FROM generate_series(1, 1200) g`,
      );
      await pool.query(
        `INSERT INTO building_scores (bbl, run_id, as_of, scorer_id, total_score, health_score, grade, label, components, flags, scores, counts, confidence)
         SELECT '3' || lpad(g::text, 5, '0') || '0001', gen_random_uuid(), '2026-11-20', 'distress_v10_2', g % 100, 100 - g % 100,
                'C', 'Fair', $1, '{}', '{}', '{}', '{}' FROM generate_series(1, 1200) g`,
        [seedComponents(50, 'C')],
      );
      await writeDocuments(pool);
      const bbls = Array.from({ length: 1200 }, (_, i) => `3${String(i + 1).padStart(5, '0')}0001`);
      const res = await call(api.url, key, 'POST', '/api/v1/export/csv', { bbls });
      const rows = parseCsv(res.text);
      expect(rows).toHaveLength(1201);
      expect(rows[1][0]).toBe(bbls[0]);
      expect(rows[1200][0]).toBe(bbls[1199]);
      expect(rows[1][CSV_COLUMNS.indexOf('total_score')]).toBe('1');
      expect(rows[1200][CSV_COLUMNS.indexOf('living_conditions_score')]).toBe('50');
    });

    it('gives its connection back when clients leave before or during an export', async () => {
      const small = await startPortfolioApi({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), RATE_LIMIT_LIVE_PER_MIN: '1000000', DATABASE_POOL_SIZE: '3' });
      try {
        const bbls = ['1000010001', '1000010002', '1000010003', '1000010004', '1000010005'];
        const abandoned = Array.from({ length: 20 }, async (_, i) => {
          const controller = new AbortController();
          const request = fetch(`${small.url}/api/v1/export/csv`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ bbls }),
            signal: controller.signal,
          }).then((res) => res.body?.cancel(), () => undefined);
          setTimeout(() => controller.abort(), i % 4 === 0 ? 0 : i * 3);
          await request.catch(() => undefined);
        });
        await Promise.all(abandoned);
        // with a pool of 3, one leaked connection per abandoned export would leave nothing for this;
        // the server notices the last departures moments later, until then its export slot answers 429
        const res = await poll('an export after the abandoned ones', async () => {
          const attempt = await call(small.url, key, 'POST', '/api/v1/export/csv', { bbls });
          return attempt.status === 429 ? null : attempt;
        }, 10_000, 200);
        expect(res.status).toBe(200);
        expect(parseCsv(res.text)).toHaveLength(bbls.length + 1);
        const stuck = await pool.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'`,
        );
        expect(stuck.rows[0].n).toBe(0);
      } finally {
        await small.close();
      }
    });

    it('refuses bad requests before streaming', async () => {
      const both = await call(api.url, key, 'POST', '/api/v1/export/csv', { bbls: ['1000010001'], grade: 'F' });
      expect(errorOf(both).code).toBe('invalid_request');
      expect(errorOf(await call(api.url, key, 'POST', '/api/v1/export/csv', {})).code).toBe('invalid_request');
      expect(errorOf(await call(api.url, key, 'POST', '/api/v1/export/csv', { grade: 'E' })).message).toMatch(/grade/);
      expect(errorOf(await call(api.url, key, 'POST', '/api/v1/export/csv', { borough: 9 })).message).toMatch(/borough/);
      expect(errorOf(await call(api.url, key, 'POST', '/api/v1/export/csv', { address: 'QX' })).message).toMatch(/"address" cannot be matched by an index/);
      // scores are whole numbers (smallint in Postgres): a decimal is a 400, never a 500
      for (const body of [{ min_score: 50.5 }, { max_score: 99.9 }, { min_score: 1e-7 }, { min_score: '50' }, { borough: 2.5 }]) {
        const res = await call(api.url, key, 'POST', '/api/v1/export/csv', body);
        expect([res.status, errorOf(res).code]).toEqual([400, 'invalid_request']);
        expect(errorOf(res).message).toMatch(/score|borough/);
      }
      const tooMany = await call(api.url, key, 'POST', '/api/v1/export/csv', { bbls: Array.from({ length: 10_001 }, () => '1000010001') });
      expect(errorOf(tooMany).code).toBe('too_many_bbls');
      expect(tooMany.headers.get('x-ratelimit-limit')).toBe('1000000');
    });
  });

  describe('GET /sources', () => {
    it('lists every catalog source with freshness and lateness by cadence', async () => {
      const daily = SOURCES.find((s) => s.cadence === 'daily')!;
      const otherDaily = SOURCES.filter((s) => s.cadence === 'daily')[1];
      const fixed = SOURCES.find((s) => s.cadence === 'static')!;
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO ingest_runs (source, status, counts) VALUES ($1, 'succeeded', '{"read": 120, "inserted": 100}') RETURNING id`,
        [daily.key],
      );
      await pool.query(
        `INSERT INTO sources (key, name, agency, dataset_id, url, cadence, last_refreshed_at, latest_record_date, records, status, last_run_id)
         VALUES ($1, 'Fresh', 'HPD', 'abcd-1234', 'https://example.org/a.csv', 'daily', now() - interval '1 day', '2026-11-19', 120, 'ok', $2),
                ($3, 'Stale', 'DOB', 'efgh-5678', NULL, 'daily', now() - interval '5 days', '2026-11-01', 50, 'ok', NULL),
                ($4, 'Static', 'DOB', NULL, NULL, 'static', now() - interval '900 days', NULL, 7, 'ok', NULL)`,
        [daily.key, rows[0].id, otherDaily.key, fixed.key],
      );
      const res = await call(api.url, key, 'GET', '/api/v1/sources');
      expect(res.status).toBe(200);
      const { sources } = dataOf<{ sources: SourceStatus[] }>(res);
      expect(sources).toHaveLength(SOURCES.length);
      expect(sources.map((s) => s.key)).toEqual(SOURCES.map((s) => s.key));
      const byKey = new Map(sources.map((s) => [s.key, s]));
      expect(byKey.get(daily.key)).toEqual({
        key: daily.key,
        name: 'Fresh',
        agency: 'HPD',
        dataset_id: 'abcd-1234',
        url: 'https://example.org/a.csv',
        cadence: 'daily',
        last_refreshed_at: expect.stringMatching(/Z$/),
        latest_record_date: '2026-11-19',
        records: 120,
        status: 'ok',
        is_late: false,
        state: 'ok',
        records_behind: false,
        failing_since: null,
        last_error: null,
        last_run: { counts: { read: 120, inserted: 100 } },
      });
      expect(byKey.get(otherDaily.key)).toMatchObject({ is_late: true, state: 'late', last_run: null });
      expect(byKey.get(fixed.key)).toMatchObject({ is_late: false, state: 'ok' });
      const neverLoaded = sources.find((s) => !([daily.key, otherDaily.key, fixed.key] as string[]).includes(s.key) && s.cadence !== 'static')!;
      expect(neverLoaded).toMatchObject({ status: 'never_loaded', state: 'never_loaded', last_refreshed_at: null, records: 0, is_late: true });
    });

    it('needs sources:read', async () => {
      expect((await call(api.url, noPortfolioKey, 'GET', '/api/v1/sources')).status).toBe(403);
    });

    it('says a failing source is failing, with its error and since when, and so does /metrics', async () => {
      const failing = SOURCES.filter((s) => s.cadence === 'daily')[2];
      await pool.query(
        `INSERT INTO sources (key, name, agency, cadence, last_refreshed_at, records, status, failing_since, last_error_code, last_error_message, failure_permanent)
         VALUES ($1, 'Failing', 'DOB', 'daily', now() - interval '1 day', 5, 'failed', '2026-11-30T06:00:00Z', 'soda_field_mismatch', 'no field for "X". Retrying cannot help', true)`,
        [failing.key],
      );
      const { sources } = dataOf<{ sources: SourceStatus[] }>(await call(api.url, key, 'GET', '/api/v1/sources'));
      expect(sources.find((s) => s.key === failing.key)).toMatchObject({
        state: 'failing',
        is_late: false,
        failing_since: '2026-11-30T06:00:00.000Z',
        last_error: { code: 'soda_field_mismatch', message: 'no field for "X". Retrying cannot help', permanent: true, run_id: null },
      });
      const [{ key: scraper }] = await createKeys(db.url, [{ name: 'scraper', scopes: ['metrics:read'] }]);
      const metrics = await fetch(`${api.url}/metrics`, { headers: { Authorization: `Bearer ${scraper}` } });
      const text = await metrics.text();
      expect(text).toContain(`bhis_source_state{source="${failing.key}",state="failing"} 1`);
      expect(text).toContain(`bhis_source_state{source="${failing.key}",state="ok"} 0`);
      expect(text).toMatch(new RegExp(`^bhis_sources\\{state="failing"\\} 1$`, 'm'));
      expect(text).toContain(`bhis_source_failing_since_seconds{source="${failing.key}"} ${Date.parse('2026-11-30T06:00:00Z') / 1000}`);
      expect(sources.filter((s) => s.state === 'never_loaded').length).toBeGreaterThan(0);
      expect(text).toMatch(new RegExp(`^bhis_sources\\{state="never_loaded"\\} ${sources.filter((s) => s.state === 'never_loaded').length}$`, 'm'));
    });
  });
});
