/**
 * A histogram row as read: the cell's values as `source|event_type|category|severity|open|excluded|age
 * bucket`, open and excluded as `t`, `f` or `n` (a record without a status is neither open nor closed).
 */
export interface HistogramSqlRow {
  bbl: string;
  cell: string;
  count: number;
  /** null when the events carry no money */
  amount: number | null;
  /** the newest ids of the group, newest first, as `id,id,id` */
  newest_event_ids: string;
  newest_occurred_on: string | null;
}
