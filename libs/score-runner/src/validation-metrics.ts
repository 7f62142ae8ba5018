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

/**
 * Expected AUC of `scores` when each building's outcome is a draw with probability `p` (soft labels):
 * the expected number of (outcome, no outcome) pairs the scores order right, ties counted half, over the
 * expected number of such pairs of two different buildings. With 0/1 `p` it is the AUC.
 */
export function expectedAuc(scores: readonly number[], p: readonly number[]): number {
  const order = scores.map((_, i) => i).sort((a, b) => scores[a] - scores[b]);
  let negativesBelow = 0;
  let concordant = 0;
  let positives = 0;
  let negatives = 0;
  let self = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    let groupPositive = 0;
    let groupNegative = 0;
    let groupSelf = 0;
    while (j < order.length && scores[order[j]] === scores[order[i]]) {
      const q = p[order[j]];
      groupPositive += q;
      groupNegative += 1 - q;
      groupSelf += q * (1 - q);
      j++;
    }
    concordant += groupPositive * negativesBelow + 0.5 * (groupPositive * groupNegative - groupSelf);
    negativesBelow += groupNegative;
    positives += groupPositive;
    negatives += groupNegative;
    self += groupSelf;
    i = j;
  }
  const pairs = positives * negatives - self;
  return pairs > 0 ? concordant / pairs : Number.NaN;
}

/**
 * Expected precision at k: the mean probability of the `k` highest scores, buildings tied at the
 * cut-off sharing the remaining places (as precisionAtK).
 */
export function expectedPrecisionAtK(scores: readonly number[], p: readonly number[], k: number): number {
  const n = Math.min(k, scores.length);
  if (n <= 0) return Number.NaN;
  const order = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a]);
  const threshold = scores[order[n - 1]];
  let above = 0;
  let aboveSum = 0;
  let tied = 0;
  let tiedSum = 0;
  for (const i of order) {
    if (scores[i] > threshold) {
      above++;
      aboveSum += p[i];
    } else if (scores[i] === threshold) {
      tied++;
      tiedSum += p[i];
    }
  }
  return (aboveSum + ((n - above) / tied) * tiedSum) / n;
}

/** Standard error of a realized AUC (Hanley and McNeil 1982, Radiology 143:29-36). */
export function aucStandardError(value: number, positives: number, negatives: number): number {
  if (!Number.isFinite(value) || positives === 0 || negatives === 0) return Number.NaN;
  const q1 = value / (2 - value);
  const q2 = (2 * value * value) / (1 + value);
  const variance = (value * (1 - value) + (positives - 1) * (q1 - value * value) + (negatives - 1) * (q2 - value * value)) / (positives * negatives);
  return Math.sqrt(Math.max(0, variance));
}

/** Share of the gap between the best baseline and the Bayes ranking that a model closes. */
export function headroomClosed(model: number, bestBaseline: number, bayes: number): number {
  return bayes > bestBaseline ? (model - bestBaseline) / (bayes - bestBaseline) : Number.NaN;
}
