/**
 * Logistic regression by Newton's method (iteratively reweighted least squares) with a small ridge
 * penalty: deterministic (no random start, no sampling), so a fit is reproducible to the last digit.
 * `nonNegative` lists the features whose coefficient may not fall below zero (active set: the most
 * negative is fixed at zero and the rest refitted until none is negative).
 */
export interface LogisticFit {
  intercept: number;
  coefficients: number[];
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function predictLogit(fit: LogisticFit, x: readonly number[]): number {
  let z = fit.intercept;
  for (let j = 0; j < x.length; j++) z += fit.coefficients[j] * x[j];
  return z;
}

/** Solves A x = b (A symmetric positive definite, small) by Gaussian elimination with partial pivoting. */
export function solveLinear(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) pivot = r;
    [m[c], m[pivot]] = [m[pivot], m[c]];
    for (let r = 0; r < n; r++) {
      if (r === c || m[c][c] === 0) continue;
      const f = m[r][c] / m[c][c];
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((row, i) => (row[i] === 0 ? 0 : row[n] / row[i]));
}

function newton(x: readonly (readonly number[])[], y: readonly number[], free: readonly boolean[], ridge: number): LogisticFit {
  const d = free.length;
  let beta = new Array<number>(d + 1).fill(0);
  const mean = y.reduce((s, v) => s + v, 0) / Math.max(1, y.length);
  beta[0] = Math.log(Math.max(1e-6, mean) / Math.max(1e-6, 1 - mean));
  const idx = [0, ...free.flatMap((f, j) => (f ? [j + 1] : []))];
  for (let iter = 0; iter < 50; iter++) {
    const h = idx.map(() => idx.map(() => 0));
    const g = idx.map(() => 0);
    for (let i = 0; i < x.length; i++) {
      const row = [1, ...x[i]];
      let z = 0;
      for (const j of idx) z += beta[j] * row[j];
      const p = sigmoid(z);
      const w = Math.max(p * (1 - p), 1e-9);
      idx.forEach((a, ai) => {
        g[ai] += (y[i] - p) * row[a];
        idx.forEach((b, bi) => (h[ai][bi] += w * row[a] * row[b]));
      });
    }
    idx.forEach((a, ai) => {
      if (a === 0) return;
      g[ai] -= ridge * beta[a];
      h[ai][ai] += ridge;
    });
    const step = solveLinear(h, g);
    let change = 0;
    idx.forEach((a, ai) => {
      beta[a] += step[ai];
      change = Math.max(change, Math.abs(step[ai]));
    });
    if (change < 1e-9) break;
  }
  beta = beta.map((b, j) => (j === 0 || free[j - 1] ? b : 0));
  return { intercept: beta[0], coefficients: beta.slice(1) };
}

export function fitLogistic(
  x: readonly (readonly number[])[],
  y: readonly number[],
  options: { ridge?: number; nonNegative?: readonly boolean[] } = {},
): LogisticFit {
  const d = x[0]?.length ?? 0;
  const ridge = options.ridge ?? 1e-3 * x.length;
  const free = new Array<boolean>(d).fill(true);
  for (;;) {
    const fit = newton(x, y, free, ridge);
    let worst = -1;
    for (let j = 0; j < d; j++) {
      if (options.nonNegative?.[j] && free[j] && fit.coefficients[j] < 0 && (worst < 0 || fit.coefficients[j] < fit.coefficients[worst])) worst = j;
    }
    if (worst < 0) return fit;
    free[worst] = false;
  }
}

/** Standardizes the columns of `x` (mean 0, sd 1; a constant column stays 0): the ridge then weighs every feature alike. */
export function standardize(x: readonly (readonly number[])[]): { z: number[][]; mean: number[]; sd: number[] } {
  const d = x[0]?.length ?? 0;
  const mean = new Array<number>(d).fill(0);
  const sd = new Array<number>(d).fill(0);
  for (const row of x) row.forEach((v, j) => (mean[j] += v / x.length));
  for (const row of x) row.forEach((v, j) => (sd[j] += (v - mean[j]) ** 2 / x.length));
  for (let j = 0; j < d; j++) sd[j] = Math.sqrt(sd[j]);
  return { z: x.map((row) => row.map((v, j) => (sd[j] > 0 ? (v - mean[j]) / sd[j] : 0))), mean, sd };
}

/** A fit on standardized columns, back on the original scale. */
export function unstandardize(fit: LogisticFit, mean: readonly number[], sd: readonly number[]): LogisticFit {
  const coefficients = fit.coefficients.map((c, j) => (sd[j] > 0 ? c / sd[j] : 0));
  return { intercept: fit.intercept - coefficients.reduce((s, c, j) => s + c * mean[j], 0), coefficients };
}
