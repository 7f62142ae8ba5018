import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { BASELINES, UNIT_BANDS } from '@bhis/score-runner';
import { generateCity } from '@bhis/synth';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { loadCity, measureCity } from './validate';

/** The validation harness end to end on a small city: the same code `npm run validate` runs at scale. */
describe('validation at small scale (real Postgres)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'bhis-validate-'));
    await generateCity({ buildings: 400, seed: 'ci-validation', outDir: dir });
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 6 });
    await loadCity(pool, dir);
  }, 300_000);

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('measures the score against every baseline at three cut dates in every band, and calibrates confidence', async () => {
    const { report, backtest, calibration } = await measureCity(pool, dir, { calibrate: true });
    expect(report.buildings).toBeGreaterThan(300);
    // public housing is counted apart, found by the scorer's rule on the loaded facts as the generator marked it
    expect(report.public_housing.buildings).toBe(report.public_housing.truth_marked);
    for (const cut of backtest.cuts) expect(cut.public_housing).toBeLessThanOrEqual(report.public_housing.buildings);
    expect(backtest.cuts.map((c) => c.cut)).toEqual(['2023-11-02', '2024-11-01', '2025-11-01']);
    for (const { bands } of backtest.cuts) {
      expect(bands.map((b) => b.band)).toEqual(UNIT_BANDS.map((b) => b.key));
      for (const band of bands) {
        expect(Object.keys(band.auc).sort()).toEqual(['score', ...BASELINES].sort());
        for (const value of [...Object.values(band.auc), ...Object.values(band.precision_at_k)]) {
          if (Number.isFinite(value)) expect(value).toBeGreaterThanOrEqual(0);
          if (Number.isFinite(value)) expect(value).toBeLessThanOrEqual(1);
        }
        expect(band.k).toBeGreaterThanOrEqual(1);
      }
    }
    const tiers = backtest.calibration.map((c) => c.tier);
    expect(tiers.length).toBeGreaterThan(0);
    expect(backtest.calibration.reduce((n, c) => n + c.buildings, 0)).toBeGreaterThan(3 * 300);
    expect(calibration?.fitted_on).toBe('2023-11-02');
    expect(calibration?.by_cut.map((c) => c.cut)).toEqual(['2023-11-02', '2024-11-01', '2025-11-01']);
  }, 600_000);
});
