/** Statistics of the validation harness (pure). */

/** Ranks with ties averaged (1-based). */
function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) out[order[k][1]] = rank;
    i = j + 1;
  }
  return out;
}

function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  if (n < 2) return Number.NaN;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? Number.NaN : sxy / Math.sqrt(sxx * syy);
}

/** Spearman's rank correlation. */
export function spearman(x: readonly number[], y: readonly number[]): number {
  return pearson(ranks(x), ranks(y));
}

/** Area under the ROC curve of `scores` for the binary `labels` (Mann-Whitney, ties counted half). */
export function auc(scores: readonly number[], labels: readonly boolean[]): number {
  const r = ranks(scores);
  let positives = 0;
  let rankSum = 0;
  labels.forEach((label, i) => {
    if (label) {
      positives++;
      rankSum += r[i];
    }
  });
  const negatives = labels.length - positives;
  if (positives === 0 || negatives === 0) return Number.NaN;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/** Share of positives among the `share` highest scores (ties broken by position). */
export function precisionAtTop(scores: readonly number[], labels: readonly boolean[], share: number): number {
  const n = Math.max(1, Math.round(scores.length * share));
  const top = scores
    .map((s, i) => [s, i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, n);
  return top.filter(([, i]) => labels[i]).length / n;
}

/**
 * Share of positives among the `k` highest scores. Scores tied at the cut-off share the remaining
 * places in proportion (the expected precision under a random order of ties), so a yes/no rule is
 * not favoured or penalised by how its ties happen to be ordered.
 */
export function precisionAtK(scores: readonly number[], labels: readonly boolean[], k: number): number {
  const n = Math.min(k, scores.length);
  if (n <= 0) return Number.NaN;
  const order = scores.map((s, i) => [s, i] as const).sort((a, b) => b[0] - a[0]);
  const threshold = order[n - 1][0];
  let above = 0;
  let abovePositives = 0;
  let tied = 0;
  let tiedPositives = 0;
  for (const [s, i] of order) {
    if (s > threshold) {
      above++;
      if (labels[i]) abovePositives++;
    } else if (s === threshold) {
      tied++;
      if (labels[i]) tiedPositives++;
    }
  }
  return (abovePositives + ((n - above) / tied) * tiedPositives) / n;
}
