import { ComponentKey } from '@bhis/domain';
import { HistogramRow } from './input';

/** Contributions listed per component. */
export const EXPLANATION_TOP_N = 3;
/** Event ids listed per contribution. */
export const EXPLANATION_EVENT_IDS = 3;

export interface SignalExplanation {
  signal: string;
  description: string;
  /** Score points of the component attributed to the signal (negative for a credit), one decimal. */
  contribution: number;
  /** Events behind the signal. */
  count: number;
  /** Newest event ids behind the signal, newest first. */
  event_ids: string[];
}

export interface ScoreAdjustment {
  rule: string;
  description: string;
  /** Total score before and after the rule (integers). */
  from: number;
  to: number;
}

export interface Explanation {
  components: Record<ComponentKey, SignalExplanation[]>;
  /** Anchor floors and ceilings applied to the total, in the order applied. */
  adjustments: ScoreAdjustment[];
}

/** Event ids (decimal, without leading zeros) in descending order. */
function compareIdsDescending(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  if (a.length !== b.length) return b.length - a.length;
  return a < b ? 1 : -1;
}

/** The newest event ids across the cells that fed a signal. */
export function newestEventIds(rows: readonly HistogramRow[] | undefined): string[] {
  if (rows === undefined || rows.length === 0) return [];
  if (rows.length === 1) return rows[0].newest_event_ids.slice(0, EXPLANATION_EVENT_IDS);
  const sorted = [...rows].sort((a, b) => {
    const left = a.newest_occurred_on ?? '';
    const right = b.newest_occurred_on ?? '';
    if (left !== right) return left < right ? 1 : -1;
    // the same newest date: the newest id first, whatever order the cells came in
    return compareIdsDescending(a.newest_event_ids[0], b.newest_event_ids[0]);
  });
  const ids: string[] = [];
  for (const row of sorted) {
    for (const id of row.newest_event_ids) {
      if (ids.length === EXPLANATION_EVENT_IDS) return ids;
      ids.push(id);
    }
  }
  return ids;
}
