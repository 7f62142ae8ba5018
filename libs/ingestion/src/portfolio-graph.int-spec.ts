import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { Pool } from 'pg';
import { createRun, syncSourceCatalog } from '@bhis/runs';
import { getSource } from '@bhis/sources';
import { generateCity } from '@bhis/synth';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { loadSource } from './load-source';
import { rebuildPortfolios } from './portfolio-graph';

jest.setTimeout(300_000);

/** Pairs of items grouped together, from a contingency of (predicted, true) group sizes. */
const pairs = (n: number) => (n * (n - 1)) / 2;

/**
 * Portfolios of a synthetic city, whose truth.csv knows each building's real owner group: one LLC per
 * building, head officers and offices spelt differently from filing to filing, management companies
 * that manage for many unrelated owners (libs/synth/src/formats/owner-networks.ts).
 */
describe('landlord portfolios of the synthetic city', () => {
  let db: TestDatabase;
  let pool: Pool;
  const dir = mkdtempSync(path.join(tmpdir(), 'bhis-portfolios-'));

  const load = async (source: string, file: string) => {
    const runId = await createRun(pool, { source, trigger: 'test', input: file });
    const full = path.join(dir, file);
    return loadSource(pool, getSource(source), { kind: 'csv', stream: createReadStream(full), totalBytes: (await stat(full)).size }, { runId, observedOn: '2026-11-01', enforceMinimumRows: false });
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await syncSourceCatalog(pool);
    await generateCity({ buildings: 2500, seed: 'portfolios', outDir: dir });
    await load('pluto', 'pluto_latest.csv');
    await load('hpd_registrations', 'hpd_registrations.csv');
    await load('hpd_registration_contacts', 'hpd_contacts.csv');
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the owner groups of truth.csv: pairwise precision and recall >= 0.95', async () => {
    const rebuild = await rebuildPortfolios(pool);
    expect(rebuild.buildings).toBeGreaterThan(500);
    expect(rebuild.shared).toBeGreaterThan(20);
    const truth = new Map(
      (parse(readFileSync(path.join(dir, 'truth.csv')), { columns: true }) as { bbl: string; owner_id: string }[]).map((r) => [r.bbl, r.owner_id]),
    );
    const { rows } = await pool.query<{ bbl: string; portfolio_id: string }>(`SELECT bbl, portfolio_id FROM building_portfolios`);
    const cells = new Map<string, number>();
    const predicted = new Map<string, number>();
    const actual = new Map<string, number>();
    for (const { bbl, portfolio_id } of rows) {
      const owner = truth.get(bbl);
      expect(owner).toBeDefined();
      const cell = `${portfolio_id}|${owner}`;
      cells.set(cell, (cells.get(cell) ?? 0) + 1);
      predicted.set(portfolio_id, (predicted.get(portfolio_id) ?? 0) + 1);
      actual.set(owner!, (actual.get(owner!) ?? 0) + 1);
    }
    const together = [...cells.values()].reduce((s, n) => s + pairs(n), 0);
    const precision = together / [...predicted.values()].reduce((s, n) => s + pairs(n), 0);
    const recall = together / [...actual.values()].reduce((s, n) => s + pairs(n), 0);
    // both figures in a failure message
    expect({ precision: precision >= 0.95 ? 'ok' : precision, recall: recall >= 0.95 ? 'ok' : recall }).toEqual({ precision: 'ok', recall: 'ok' });
  });

  it('never merges unrelated owners through a management company, and every registered building is in one portfolio', async () => {
    const truth = new Map(
      (parse(readFileSync(path.join(dir, 'truth.csv')), { columns: true }) as { bbl: string; owner_id: string }[]).map((r) => [r.bbl, r.owner_id]),
    );
    // agents that are not the owner itself: management companies, each with the buildings it manages
    const { rows: managed } = await pool.query<{ company: string; bbls: string[]; portfolios: string[] }>(
      `SELECT a.name AS company, array_agg(r.bbl) AS bbls, array_agg(DISTINCT bp.portfolio_id) AS portfolios
         FROM hpd_registration_contacts a JOIN hpd_registrations r USING (registration_id) JOIN building_portfolios bp ON bp.bbl = r.bbl
        WHERE a.contact_type = 'Agent'
          AND NOT EXISTS (SELECT 1 FROM hpd_registration_contacts o WHERE o.registration_id = a.registration_id AND o.contact_type = 'CorporateOwner' AND o.name = a.name)
        GROUP BY a.name`,
    );
    const spanning = managed.filter((m) => new Set(m.bbls.map((b) => truth.get(b))).size > 1);
    expect(spanning.length).toBeGreaterThan(2);
    for (const m of spanning) {
      const owners = new Set(m.bbls.map((b) => truth.get(b)));
      // one portfolio per owner it manages for, at least: the company joins none of them
      expect([m.company, m.portfolios.length >= owners.size]).toEqual([m.company, true]);
    }
    const { rows } = await pool.query<{ kind: string }>(`SELECT DISTINCT l ->> 'kind' AS kind FROM owner_portfolios, jsonb_array_elements(links) l`);
    expect(rows.map((r) => r.kind).sort()).toEqual(expect.arrayContaining(['address', 'person']));
    const unplaced = await pool.query(`SELECT r.bbl FROM hpd_registrations r LEFT JOIN building_portfolios b USING (bbl) WHERE b.bbl IS NULL AND r.vanished_on IS NULL`);
    expect(unplaced.rowCount).toBe(0);
  });

  it('keeps the portfolios of a failed rebuild, and gives the same ids when rebuilt from the same registrations', async () => {
    const before = await pool.query<{ id: string; buildings: number }>(`SELECT id, buildings FROM owner_portfolios ORDER BY id`);
    await rebuildPortfolios(pool);
    const after = await pool.query<{ id: string; buildings: number }>(`SELECT id, buildings FROM owner_portfolios ORDER BY id`);
    expect(after.rows).toEqual(before.rows);
    // a rebuild that fails half-way (here: every membership row refused)
    await pool.query(`ALTER TABLE building_portfolios ADD CONSTRAINT fail_rebuild CHECK (bbl IS NULL) NOT VALID`);
    await expect(rebuildPortfolios(pool)).rejects.toThrow(/fail_rebuild/);
    await pool.query(`ALTER TABLE building_portfolios DROP CONSTRAINT fail_rebuild`);
    const kept = await pool.query<{ id: string; buildings: number }>(`SELECT id, buildings FROM owner_portfolios ORDER BY id`);
    expect(kept.rows).toEqual(before.rows);
  });
});
