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

/** Newest first: the later newest date, then (the same newest date) the newest id first, whatever order the cells came in. */
function newerCell(a: HistogramRow, b: HistogramRow): number {
  const left = a.newest_occurred_on ?? '';
  const right = b.newest_occurred_on ?? '';
  if (left !== right) return left < right ? 1 : -1;
  return compareIdsDescending(a.newest_event_ids[0], b.newest_event_ids[0]);
}

/** Whether the first `count` cells hold EXPLANATION_EVENT_IDS ids. */
function holdsEnough(cells: readonly HistogramRow[], count = cells.length): boolean {
  let held = 0;
  for (let i = 0; i < count; i++) held += cells[i].newest_event_ids.length;
  return held >= EXPLANATION_EVENT_IDS;
}

/**
 * The newest event ids across the cells that fed a signal: those of the cells in `newerCell` order
 * (cells that compare equal in the order they came). Only the newest cells holding enough ids are
 * kept in order, not all of them sorted.
 */
export function newestEventIds(rows: readonly HistogramRow[] | undefined): string[] {
  if (rows === undefined || rows.length === 0) return [];
  if (rows.length === 1) return rows[0].newest_event_ids.slice(0, EXPLANATION_EVENT_IDS);
  const newest: HistogramRow[] = [];
  for (const row of rows) {
    let at = newest.length;
    while (at > 0 && newerCell(row, newest[at - 1]) < 0) at--;
    if (at === newest.length && holdsEnough(newest)) continue;
    newest.push(row);
    for (let i = newest.length - 1; i > at; i--) newest[i] = newest[i - 1];
    newest[at] = row;
    while (newest.length > 1 && holdsEnough(newest, newest.length - 1)) newest.pop();
  }
  const ids: string[] = [];
  for (const row of newest) {
    for (const id of row.newest_event_ids) {
      if (ids.length === EXPLANATION_EVENT_IDS) return ids;
      ids.push(id);
    }
  }
  return ids;
}
