import { LoadRequest, runLoad } from './load';

/**
 * The API against bare Express in paired rounds. On a shared 2-CPU VM, two 12 s loads of the same
 * server taken a minute apart differ by up to a third (bare Express measured 6,308 and 4,280 req/s in
 * one run), so a ratio of two single loads says more about the moment than about the code. A round
 * loads the API and then Express (or Express first, every other round, so that a drift during the
 * round favours neither) for a few seconds each, right after one another; the ratio is the median of
 * the rounds' ratios.
 */
export interface PairedTarget {
  baseUrl: string;
  headers: Record<string, string>;
  request: LoadRequest;
}

export interface PairedRounds {
  rounds: number;
  secondsPerLoad: number;
  /** API req/s / Express req/s of each round, in order */
  ratios: number[];
  median: number;
}

// 21 rounds of 2 s, not 9 of 4 s: the two loads of a round are compared at closer moments, and more
// rounds give the median more to stand on. Rounds of 4 s of one build ranged from 0.68 to 1.17 of
// Express on this VM, and the median of 9 moved by up to a tenth between identical runs
export const PAIRED_ROUNDS = 21;
export const PAIRED_SECONDS = 2;

async function requestsPerSecond(target: PairedTarget, connections: number, seconds: number): Promise<number> {
  const result = await runLoad({ name: 'paired round', baseUrl: target.baseUrl, connections, durationSeconds: seconds, headers: target.headers, request: target.request });
  return result.requests / result.durationSeconds;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Both servers must be warm (each has had its own scenario run before). */
export async function pairedRounds(api: PairedTarget, express: PairedTarget, connections: number, rounds = PAIRED_ROUNDS, seconds = PAIRED_SECONDS): Promise<PairedRounds> {
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const apiFirst = round % 2 === 0;
    const first = await requestsPerSecond(apiFirst ? api : express, connections, seconds);
    const second = await requestsPerSecond(apiFirst ? express : api, connections, seconds);
    const [apiRate, expressRate] = apiFirst ? [first, second] : [second, first];
    ratios.push(Math.round((apiRate / expressRate) * 1000) / 1000);
  }
  return { rounds, secondsPerLoad: seconds, ratios, median: median(ratios) };
}
