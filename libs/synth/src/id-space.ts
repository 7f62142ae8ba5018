import type { Building } from './buildings';

/**
 * The integer ids of the real data sets (HPD ViolationID and ComplaintID, 311 unique keys...) fit in
 * a signed 32-bit integer, and tools that load these files type them so; synthetic ids do too.
 */
export const MAX_ID = 2 ** 31 - 1;
/** Ids have at least seven digits, as the real ones do. */
const FIRST_ID = 1_000_000;

/** A lot's share of the id space: its units (a lot without units counts as one). */
export function idWeight(building: Pick<Building, 'units'>): number {
  return Math.max(1, building.units);
}

/**
 * Splits [FIRST_ID, MAX_ID] among the lots of a city in proportion to their units, in lot order.
 * Every kind of record (violations, complaints, 311 requests...) numbers its records within the
 * lot's range, so a record's id depends only on the city's lots and the record's place in its
 * building's history: a city generated again a day later keeps every id.
 */
export class IdSpace {
  private readonly starts: Float64Array;
  /** Ids per unit of weight. */
  readonly perWeight: number;

  constructor(weights: ArrayLike<number>) {
    this.starts = new Float64Array(weights.length + 1);
    let total = 0;
    for (let i = 0; i < weights.length; i++) {
      this.starts[i] = total;
      total += weights[i];
    }
    this.starts[weights.length] = total;
    this.perWeight = Math.floor((MAX_ID - FIRST_ID) / Math.max(1, total));
    if (this.perWeight < 1) throw new Error(`a city of ${weights.length} lots and ${total} units does not fit 32-bit ids`);
  }

  /** The first id minus one, and how many ids, of a lot's range. */
  rangeOf(index: number): { base: number; capacity: number } {
    return { base: FIRST_ID - 1 + this.starts[index] * this.perWeight, capacity: (this.starts[index + 1] - this.starts[index]) * this.perWeight };
  }
}
