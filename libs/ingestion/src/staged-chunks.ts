import type { ParseCounters } from '@bhis/sources';
import { type ChunkLines, compareIds } from './stage-records';
import type { IdSegment } from './staged-file';

/**
 * What the record ids of a file staged in chunks say about repeats: none (`distinct`), or only the
 * ids that end one chunk and start the next (the rows of one record on both sides of a cut: the
 * merge collapses those alone), or any (`repeatsOnly` null: a chunk out of order, or chunks that
 * overlap: the merge looks for repeats in the whole file, as for any file out of order).
 */
export function idsAcrossChunks(segments: readonly IdSegment[]): { distinct: boolean; repeatsOnly: string[] | null } {
  const ordered = [...segments].sort((a, b) => a.chunk - b.chunk);
  const repeats = new Set<string>();
  for (let i = 0; i < ordered.length; i++) {
    if (!ordered[i].increasing) return { distinct: false, repeatsOnly: null };
    if (i === 0) continue;
    const order = compareIds(ordered[i - 1].last, ordered[i].first);
    if (order > 0) return { distinct: false, repeatsOnly: null };
    if (order === 0) repeats.add(ordered[i].first);
  }
  return repeats.size === 0 ? { distinct: true, repeatsOnly: [] } : { distinct: false, repeatsOnly: [...repeats] };
}

const addInto = (into: Record<string, number>, from: Readonly<Record<string, number>>) => {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
};

/** The counters of a file's parse from those of the threads that parsed its chunks. */
export function sumCounters(parts: readonly ParseCounters[]): ParseCounters {
  const [first, ...rest] = parts;
  const sum: ParseCounters = {
    ...first,
    ignoredColumns: [...first.ignoredColumns],
    quarantinedByReason: { ...first.quarantinedByReason },
    notRelevantByReason: { ...first.notRelevantByReason },
    castFailures: { ...first.castFailures },
    unmappedWords: { ...first.unmappedWords },
  };
  for (const part of rest) {
    sum.read += part.read;
    sum.ok += part.ok;
    sum.unchangedLines += part.unchangedLines;
    sum.quarantined += part.quarantined;
    sum.notRelevant += part.notRelevant;
    sum.events += part.events;
    sum.facts += part.facts;
    addInto(sum.quarantinedByReason, part.quarantinedByReason);
    addInto(sum.notRelevantByReason, part.notRelevantByReason);
    addInto(sum.castFailures, part.castFailures);
    addInto(sum.unmappedWords, part.unmappedWords);
  }
  return sum;
}

/** Where a chunk of a file cut into chunks belongs (csv-chunks.ts). */
export interface ChunkPlace {
  index: number;
  firstLine: number;
  lines: number;
}

/** The chunks a thread received, in order: a line of its input is found by its place in them. */
export class ReceivedChunks implements ChunkLines {
  private readonly spans: { chunk: number; start: number; firstLine: number; lines: number }[] = [];
  private nextStart = 1;
  private at = 0;

  add(place: ChunkPlace): void {
    this.spans.push({ chunk: place.index, start: this.nextStart, firstLine: place.firstLine, lines: place.lines });
    this.nextStart += place.lines;
  }

  locate(localLine: number): { line: number; chunk: number } {
    // records come in order: the span of a line is never before the last one found
    while (this.at < this.spans.length - 1 && localLine >= this.spans[this.at].start + this.spans[this.at].lines) this.at += 1;
    const span = this.spans[this.at];
    return { line: span.firstLine + (localLine - span.start), chunk: span.chunk };
  }
}
