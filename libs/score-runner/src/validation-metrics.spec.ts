import { auc, aucStandardError, expectedAuc, expectedPrecisionAtK, headroomClosed, precisionAtK, precisionAtTop, spearman } from './validation-metrics';
import { fitLogistic, predictLogit } from './logistic';

describe('validation metrics', () => {
  it('spearman is 1 for any increasing relation, -1 for decreasing, and handles ties', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 300, 4000])).toBeCloseTo(1);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1);
    expect(spearman([1, 1, 2, 2], [1, 1, 2, 2])).toBeCloseTo(1);
    expect(Number.isNaN(spearman([1, 1, 1], [1, 2, 3]))).toBe(true);
  });

  it('auc is 1 for a perfect ranking, 0.5 for ties, 0 for an inverted one', () => {
    expect(auc([0.9, 0.8, 0.1, 0.2], [true, true, false, false])).toBe(1);
    expect(auc([1, 1, 1, 1], [true, false, true, false])).toBe(0.5);
    expect(auc([0.1, 0.2, 0.9, 0.8], [true, true, false, false])).toBe(0);
    expect(auc([0.3, 0.1, 0.2], [true, false, true])).toBe(1);
  });

  it('precision at the top share counts positives among the highest scores', () => {
    const scores = [90, 80, 70, 60, 50, 40, 30, 20, 10, 0];
    const labels = [true, false, true, false, false, false, false, false, false, true];
    expect(precisionAtTop(scores, labels, 0.2)).toBe(0.5);
    expect(precisionAtTop(scores, labels, 0.1)).toBe(1);
  });

  it('precision at k shares the places at the cut-off among tied scores', () => {
    const labels = [true, false, true, false];
    expect(precisionAtK([4, 3, 2, 1], labels, 2)).toBe(0.5);
    // a yes/no rule: 3 tied at the top, 2 of them positive, 2 places: expected 2 x 2/3 positives
    expect(precisionAtK([1, 1, 1, 0], [true, false, true, false], 2)).toBeCloseTo(2 / 3);
    expect(precisionAtK([0, 0, 0, 0], labels, 4)).toBe(0.5);
  });

  it('expected AUC with 0/1 probabilities is the AUC, and averages the AUC over draws of the outcomes', () => {
    const scores = [0.3, 0.1, 0.2, 0.2, 0.5];
    const labels = [true, false, true, false, false];
    expect(expectedAuc(scores, labels.map(Number))).toBeCloseTo(auc(scores, labels), 12);
    // brute force over every draw of two uncertain outcomes, weighted by its chance and its pair count
    const p = [0.9, 0.2, 0.5, 0.5, 0.1];
    let num = 0;
    let den = 0;
    for (let mask = 0; mask < 32; mask++) {
      const draw = p.map((_, i) => (mask >> i) & 1);
      const chance = draw.reduce((c, d, i) => c * (d ? p[i] : 1 - p[i]), 1);
      const pos = draw.filter(Boolean).length;
      if (pos === 0 || pos === 5) continue;
      num += chance * auc(scores, draw.map(Boolean)) * pos * (5 - pos);
      den += chance * pos * (5 - pos);
    }
    expect(expectedAuc(scores, p)).toBeCloseTo(num / den, 12);
    // ranking by the probability itself is the best any score can expect
    expect(expectedAuc(p, p)).toBeGreaterThanOrEqual(expectedAuc(scores, p));
  });

  it('expected precision at k is the mean probability of the top k, ties sharing the places', () => {
    expect(expectedPrecisionAtK([4, 3, 2, 1], [0.9, 0.1, 0.5, 0.3], 2)).toBeCloseTo(0.5);
    expect(expectedPrecisionAtK([1, 1, 0, 0], [0.9, 0.1, 0.5, 0.3], 1)).toBeCloseTo(0.5);
  });

  it('headroom closed and the standard error of an AUC', () => {
    expect(headroomClosed(0.8, 0.7, 0.9)).toBeCloseTo(0.5);
    expect(Number.isNaN(headroomClosed(0.8, 0.9, 0.9))).toBe(true);
    // Hanley-McNeil: an AUC of 0.8 from 50 positives and 50 negatives has a standard error of 0.0445 (sqrt(4.951 / 2500))
    expect(aucStandardError(0.8, 50, 50)).toBeCloseTo(0.0445, 3);
  });

  it('the logistic fit recovers known coefficients and keeps a non-negative one at zero', () => {
    const x: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 4000; i++) {
      const a = ((i * 7919) % 1000) / 500 - 1;
      const b = ((i * 104729) % 997) / 498.5 - 1;
      x.push([a, b]);
      const logit = -1 + 2 * a - 0.5 * b;
      y.push(((i * 2654435761) % 4294967296) / 4294967296 < 1 / (1 + Math.exp(-logit)) ? 1 : 0);
    }
    const fit = fitLogistic(x, y, { ridge: 0 });
    expect(fit.coefficients[0]).toBeCloseTo(2, 0);
    expect(fit.coefficients[1]).toBeCloseTo(-0.5, 0);
    expect(predictLogit(fit, [0, 0])).toBeCloseTo(-1, 0);
    const constrained = fitLogistic(x, y, { nonNegative: [true, true] });
    expect(constrained.coefficients[1]).toBe(0);
    expect(constrained.coefficients[0]).toBeGreaterThan(1);
  });
});
