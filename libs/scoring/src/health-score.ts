import { sizeBandOfPeerGroup } from './peer-groups';

/**
 * health_score = round(100 * share of the peer distribution with a total_score at least as high as the
 * building's): 100 = no peer is healthier, 0 = every peer is healthier. It is a within-group rank, so it
 * only moves the other way from total_score inside one peer group. Peer groups smaller than
 * MIN_PEER_GROUP_SIZE fall back to their size band, and that to the whole run.
 */
export const MIN_PEER_GROUP_SIZE = 30;

/** Sorted (ascending) totals per peer group, per size band and for the whole run. */
export interface PeerDistribution {
  readonly groups: ReadonlyMap<string, Float64Array>;
  readonly sizeBands: ReadonlyMap<string, Float64Array>;
  readonly all: Float64Array;
}

function sortedCopy(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values).sort();
}

function merge(arrays: readonly Float64Array[]): Float64Array {
  let length = 0;
  for (const a of arrays) length += a.length;
  const out = new Float64Array(length);
  let offset = 0;
  for (const a of arrays) {
    out.set(a, offset);
    offset += a.length;
  }
  return out.sort();
}

/** Builds the distribution from totals grouped by peer group (in any order). */
export function buildPeerDistribution(totalsByPeerGroup: ReadonlyMap<string, ArrayLike<number>> | Readonly<Record<string, ArrayLike<number>>>): PeerDistribution {
  const entries = totalsByPeerGroup instanceof Map ? [...totalsByPeerGroup.entries()] : Object.entries(totalsByPeerGroup);
  const groups = new Map<string, Float64Array>();
  for (const [group, totals] of entries) groups.set(group, sortedCopy(totals));
  return withFallbacks(groups);
}

/** For incremental runs: the distribution from totals already sorted ascending per peer group (not copied). */
export function peerDistributionFromSorted(sortedByPeerGroup: ReadonlyMap<string, Float64Array>): PeerDistribution {
  return withFallbacks(sortedByPeerGroup);
}

function withFallbacks(groups: ReadonlyMap<string, Float64Array>): PeerDistribution {
  const byBand = new Map<string, Float64Array[]>();
  for (const [group, totals] of groups) {
    const band = sizeBandOfPeerGroup(group);
    const list = byBand.get(band) ?? [];
    list.push(totals);
    byBand.set(band, list);
  }
  const sizeBands = new Map<string, Float64Array>();
  for (const [band, arrays] of byBand) sizeBands.set(band, merge(arrays));
  return { groups, sizeBands, all: merge([...groups.values()]) };
}

/** Number of values >= x in an ascending array. */
function countAtLeast(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length - lo;
}

/** The comparison set used for a peer group: itself, else its size band, else the whole run. */
export function comparisonSet(distribution: PeerDistribution, peerGroup: string): Float64Array {
  const own = distribution.groups.get(peerGroup);
  if (own !== undefined && own.length >= MIN_PEER_GROUP_SIZE) return own;
  const band = distribution.sizeBands.get(sizeBandOfPeerGroup(peerGroup));
  if (band !== undefined && band.length >= MIN_PEER_GROUP_SIZE) return band;
  return distribution.all;
}

/** Health score of one total against a distribution; 100 - total when the distribution is empty. */
export function healthScoreFromDistribution(distribution: PeerDistribution, peerGroup: string, totalScore: number): number {
  const set = comparisonSet(distribution, peerGroup);
  if (set.length === 0) return 100 - totalScore;
  return Math.round((100 * countAtLeast(set, totalScore)) / set.length);
}

/**
 * The second pass of a full run: health scores for all totals grouped by peer group, in the same order
 * as the input arrays.
 */
export function healthScoresByPeerGroup(totalsByPeerGroup: Readonly<Record<string, readonly number[]>>): Record<string, number[]> {
  const distribution = buildPeerDistribution(totalsByPeerGroup);
  const out: Record<string, number[]> = {};
  for (const [group, totals] of Object.entries(totalsByPeerGroup)) {
    out[group] = totals.map((total) => healthScoreFromDistribution(distribution, group, total));
  }
  return out;
}
