import type { Pool } from 'pg';
import { CONFIDENCE_TIERS, ConfidenceParts, ConfidenceTier, confidenceOf, confidencePartsOfBuilding, FITTED_MODEL, FittedConfidence, intervalOf, scoreBuilding } from '@bhis/scoring';
import { buildingInput, histogramByBbl } from './building-input';
import { readChunk } from './feature-queries';
import { solveLinear } from './logistic';
import { startRun } from './scoring-run';

/**
 * The fit of the confidence's constants (FittedConfidence, fitted-constants.ts) on the buildings of the
 * training city scored at the training cut and again a year later: the expected move by least squares of
 * the absolute change of the total on the confirmed records' spread and corroboration, then, within each
 * tier the fitted move gives, the interval's multiplier whose coverage of the next year's total is nearest
 * to TARGET_COVERAGE. Deterministic: `bhis validate --calibrate`.
 */
export interface ConfidenceSample {
  parts: ConfidenceParts;
  /** The total 12 months later. */
  next: number;
}

/** The middle of the 60-80% the interval is asked to cover. */
export const TARGET_COVERAGE = 0.7;
/** Multipliers compared: 0 to 12 expected moves by 0.05. */
const MULTIPLIER_GRID = Array.from({ length: 241 }, (_, i) => i * 0.05);
/** A tier with fewer training buildings takes the multiplier of all the training buildings. */
const MIN_TIER_SAMPLES = 30;

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export interface ConfidenceFit {
  fitted_on: string;
  next: string;
  samples: number;
  fitted: FittedConfidence;
  current: FittedConfidence;
  /** Training coverage of the fitted interval, per tier. */
  coverage: { tier: ConfidenceTier; samples: number; coverage: number }[];
}

function covered(samples: readonly ConfidenceSample[], moves: readonly number[], multiplier: number): number {
  let n = 0;
  samples.forEach((s, i) => {
    const { low, high } = intervalOf(s.parts.total, multiplier * moves[i]);
    if (s.next >= low && s.next <= high) n++;
  });
  return samples.length === 0 ? 0 : n / samples.length;
}

function multiplierFor(samples: readonly ConfidenceSample[], moves: readonly number[]): number {
  let best = MULTIPLIER_GRID[0];
  let gap = Infinity;
  for (const k of MULTIPLIER_GRID) {
    const g = Math.abs(covered(samples, moves, k) - TARGET_COVERAGE);
    if (g < gap - 1e-12) {
      gap = g;
      best = k;
    }
  }
  return round3(best);
}

export function fitConfidence(samples: readonly ConfidenceSample[]): { fitted: FittedConfidence; coverage: ConfidenceFit['coverage'] } {
  if (samples.length === 0) throw new Error('confidence calibration: no samples');
  // least squares of |next - total| on (1, spread, 1 - corroboration)
  const xtx = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const xty = [0, 0, 0];
  for (const s of samples) {
    const x = [1, s.parts.confirmedSpread, 1 - s.parts.corroboration];
    const y = Math.abs(s.next - s.parts.total);
    for (let a = 0; a < 3; a++) {
      xty[a] += x[a] * y;
      for (let b = 0; b < 3; b++) xtx[a][b] += x[a] * x[b];
    }
  }
  const [base, spread, uncorroborated] = solveLinear(xtx, xty).map(round3);
  const move = { base, spread, uncorroborated };
  const ones = { high: 1, medium: 1, low: 1, insufficient: 1 };
  const moved = samples.map((s) => ({ sample: s, ...confidenceOf(s.parts, { move, interval_multipliers: ones }) }));
  const all = multiplierFor(samples, moved.map((m) => m.move));
  const multipliers = { ...ones };
  const coverage: ConfidenceFit['coverage'] = [];
  for (const { tier } of CONFIDENCE_TIERS) {
    const inTier = moved.filter((m) => m.tier === tier);
    const tierSamples = inTier.map((m) => m.sample);
    const tierMoves = inTier.map((m) => m.move);
    multipliers[tier] = inTier.length >= MIN_TIER_SAMPLES ? multiplierFor(tierSamples, tierMoves) : all;
    if (inTier.length > 0) coverage.push({ tier, samples: inTier.length, coverage: round3(covered(tierSamples, tierMoves, multipliers[tier])) });
  }
  return { fitted: { move, interval_multipliers: multipliers }, coverage };
}

const SAMPLE_CHUNK = 2000;

/** Every building scored in this process at `asOf`: `visit` gets each one's input. */
async function scoreEvery(pool: Pool, asOf: string, visit: (bbl: string, input: ReturnType<typeof buildingInput>) => void): Promise<void> {
  const start = await startRun(pool, asOf, { settled: false, recountPropensity: true });
  const { rows } = await pool.query<{ bbl: string }>(`SELECT bbl FROM buildings ORDER BY bbl`);
  const bbls = rows.map((r) => r.bbl);
  for (let i = 0; i < bbls.length; i += SAMPLE_CHUNK) {
    const chunk = await readChunk(pool, bbls.slice(i, i + SAMPLE_CHUNK), asOf, null);
    const histograms = histogramByBbl(chunk.histogram, chunk.settled, asOf);
    for (const facts of chunk.facts) visit(facts.bbl, buildingInput(facts, histograms.get(facts.bbl) ?? [], chunk, start.context));
  }
}

/** The confidence's parts of every building at `cut` and its total at `next` (the backtest's stability pairs). */
export async function confidenceSamples(pool: Pool, cut: string, next: string): Promise<ConfidenceSample[]> {
  const later = new Map<string, number>();
  await scoreEvery(pool, next, (bbl, input) => later.set(bbl, scoreBuilding(input).total_score));
  const samples: ConfidenceSample[] = [];
  await scoreEvery(pool, cut, (bbl, input) => {
    const total = later.get(bbl);
    if (total !== undefined) samples.push({ parts: confidencePartsOfBuilding(input), next: total });
  });
  return samples;
}

export async function calibrateConfidence(pool: Pool, cut: string, next: string): Promise<ConfidenceFit> {
  const samples = await confidenceSamples(pool, cut, next);
  const { fitted, coverage } = fitConfidence(samples);
  return { fitted_on: cut, next, samples: samples.length, fitted, current: FITTED_MODEL.confidence, coverage };
}
