import { headerKey } from './header';
import { SOURCES } from './registry';

/** The source whose declared header a file's header is nearest to (a wrong file's hint). */
export interface ClosestSource {
  source: string;
  part: string;
  /** Columns of the file that the source's header has. */
  matched: number;
  /** Columns of the source's header. */
  columns: number;
}

/**
 * The declared header (of any source, part and known variant) sharing the most columns with the file,
 * by the header matching key; null when none shares at least half of the larger of the two headers,
 * so that a hint is given only where the file plausibly is that source's.
 */
export function closestSource(header: readonly string[]): ClosestSource | null {
  const actual = new Set(header.map(headerKey));
  let best: (ClosestSource & { score: number }) | null = null;
  for (const source of SOURCES) {
    for (const part of source.parts) {
      for (const expected of [part.header, ...part.headerVariants]) {
        const keys = new Set(expected.map(headerKey));
        const matched = [...actual].filter((key) => keys.has(key)).length;
        const score = matched / Math.max(keys.size, actual.size, 1);
        if (!best || score > best.score) best = { source: source.key, part: part.part, matched, columns: keys.size, score };
      }
    }
  }
  if (!best || best.score < 0.5) return null;
  const { score: _score, ...closest } = best;
  return closest;
}
