import { auc, precisionAtK, precisionAtTop, spearman } from './validation-metrics';

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
});
