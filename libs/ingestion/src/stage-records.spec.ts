import { IdOrder } from './stage-records';

function increasing(ids: string[]): boolean {
  const order = new IdOrder();
  for (const id of ids) order.add(id);
  return order.strictlyIncreasing;
}

describe('IdOrder: whether staged record ids came in strictly increasing order', () => {
  it('numeric ids in numeric order, whatever their length', () => {
    expect(increasing(['9', '10', '99', '100', '2147483646'])).toBe(true);
  });

  it('other ids in the order of their text, shorter first', () => {
    expect(increasing(['B1', 'B2', 'A10', 'B10', 'ECB-001'])).toBe(true);
  });

  it('no ids, or one, repeat nothing', () => {
    expect(increasing([])).toBe(true);
    expect(increasing(['42'])).toBe(true);
  });

  it('an id repeated, next to its first or further on, is not increasing', () => {
    expect(increasing(['1', '2', '2', '3'])).toBe(false);
    expect(increasing(['1', '2', '3', '2'])).toBe(false);
  });

  it('one id out of order stays out of order, whatever follows', () => {
    expect(increasing(['10', '9', '11', '12'])).toBe(false);
    expect(increasing(['100', '99'])).toBe(false);
  });

  it('a strict order: the ids it accepts are all distinct', () => {
    const ids = ['7', '07', '7', '007', '70', 'A', 'AA', 'B', '1000', '70'];
    let accepted = 0;
    for (let round = 0; round < 1 << ids.length; round++) {
      const sample = ids.filter((_, i) => (round >> i) & 1);
      for (const order of [sample, [...sample].reverse()]) {
        if (!increasing(order)) continue;
        accepted += 1;
        expect(new Set(order).size).toBe(order.length);
      }
    }
    expect(accepted).toBeGreaterThan(100);
  });
});
