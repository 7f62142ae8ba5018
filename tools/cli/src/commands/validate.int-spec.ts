import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { COMPONENT_KEYS } from '@bhis/domain';
import { BASELINES, calibrateConfidence, RANKINGS, TARGET_COVERAGE, UNIT_BANDS } from '@bhis/score-runner';
import { CALIBRATION_GRID } from '@bhis/scoring';
import { generateCity } from '@bhis/synth';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { datesOfLoadedCity, fitOnCity, loadCity, measureCity, readTruth } from './validate';
import { goalOf, renderValidation } from './validate-report';

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

  it('measures expected and realized AUC of the score, every baseline, the reference and the Bayes ranking at the truth file\'s cut dates', async () => {
    const truth = readTruth(path.join(dir, 'truth.csv'));
    const cuts = Object.keys([...truth.values()][0].probabilityAfter ?? {}).sort();
    expect(cuts).toEqual(['2023-11-02', '2024-11-01', '2025-11-01']);
    const { report, backtest } = await measureCity(pool, { truth, asOf: '2026-11-01', cuts });
    expect(report.buildings).toBeGreaterThan(300);
    expect(report.public_housing.buildings).toBe(report.public_housing.truth_marked);
    expect(backtest.cuts.map((c) => c.cut)).toEqual(cuts);
    for (const { bands, pooled_precision: pooled } of backtest.cuts) {
      expect(bands.map((b) => b.band)).toEqual(UNIT_BANDS.map((b) => b.key));
      for (const band of bands) {
        expect(Object.keys(band.expected_auc ?? {}).sort()).toEqual([...RANKINGS].sort());
        const expected = band.expected_auc as Record<string, number>;
        // the Bayes ranking is the best any ranking can expect
        for (const name of ['score', ...BASELINES]) if (Number.isFinite(expected[name])) expect(expected[name]).toBeLessThanOrEqual(expected.bayes + 1e-9);
        expect(expected.bayes).toBeGreaterThan(0.5);
        expect(band.expected_positives).toBeGreaterThan(0);
        expect(Number.isFinite(band.headroom_closed?.score)).toBe(true);
        if (band.positives > 0 && band.positives < band.buildings) expect(band.realized_auc_se).toBeGreaterThanOrEqual(0);
      }
      expect(pooled.k).toBeGreaterThanOrEqual(50);
      expect(pooled.expected?.bayes).toBeGreaterThanOrEqual(pooled.expected?.score ?? 1);
    }
    expect(backtest.grade_outcomes.length).toBeGreaterThan(4);
    expect(backtest.grade_tiers.length).toBeGreaterThan(4);
    for (const row of backtest.calibration) expect(row.interval_covers_next_cut).toBeGreaterThanOrEqual(0);
    expect(backtest.calibration.reduce((n, c) => n + c.buildings, 0)).toBeGreaterThan(3 * 300);
    const text = renderValidation([{ seed: 'ci-validation', buildings: report.buildings, synthetic: true, report, backtest }], { command: 'x', seconds: 1 });
    expect(text).toContain('Expected AUC by unit band and cut date');
    expect(goalOf(backtest).cells).toBe(12);
  }, 900_000);

  it('fits the constants on the earliest cut date, from the truth file or from the events alone', async () => {
    const truth = readTruth(path.join(dir, 'truth.csv'));
    const fromTruth = await fitOnCity(pool, { truth, cut: '2023-11-02' });
    expect(fromTruth.fitted_on).toBe('2023-11-02');
    expect(COMPONENT_KEYS.reduce((s, k) => s + fromTruth.fitted.component_weights[k], 0)).toBeCloseTo(1, 6);
    // every half-life factor and knee of the grid compared, the most likely kept
    expect(fromTruth.candidates).toHaveLength(CALIBRATION_GRID.half_life_factors.length * CALIBRATION_GRID.knees.length);
    const best = Math.max(...fromTruth.candidates.map((c) => c.log_likelihood));
    expect(fromTruth.candidates.find((c) => c.log_likelihood === best)).toMatchObject({ half_life_factor: fromTruth.fitted.half_life_factor, knee: fromTruth.fitted.knee });
    // a loaded real city: no truth file, the cut dates and the labels come from its events
    const dates = await datesOfLoadedCity(pool);
    expect(dates.cuts.length).toBeGreaterThanOrEqual(3);
    const fromEvents = await fitOnCity(pool, { cut: dates.cuts[0] });
    expect(fromEvents.positives).toBeGreaterThan(0);
    expect(fromEvents.fitted.size.exponent).toBeGreaterThanOrEqual(0);
    const { backtest } = await measureCity(pool, { cuts: dates.cuts, asOf: dates.asOf });
    for (const c of backtest.cuts) for (const band of c.bands) expect(band.expected_auc).toBeNull();
    // the confidence's constants: every building at the training cut against its total a year later
    const confidence = await calibrateConfidence(pool, '2023-11-02', '2024-11-01');
    expect(confidence.samples).toBeGreaterThan(300);
    for (const tier of confidence.coverage) if (tier.samples >= 30) expect(Math.abs(tier.coverage - TARGET_COVERAGE)).toBeLessThan(0.1);
  }, 900_000);
});
