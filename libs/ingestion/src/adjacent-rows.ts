import { SEVERITIES, type NormalizedEvent } from '@bhis/domain';
import { jsonbText } from '@bhis/db';
import { LIST_ATTRIBUTES } from './merge-events';
import { inStoredListOrder } from './merge-refinements';

/** An event as it is staged, with the number of file rows it stands for. */
export interface StagedEvent {
  line: number;
  event: NormalizedEvent;
  rows: number;
  /** Its list attributes are in the order the merge stores them (merge-refinements.ts). */
  listsOrdered: boolean;
}

/** A row's event staged as it is (its lists put in stored order where that can be done here). */
export function stagedAlone(line: number, event: NormalizedEvent): StagedEvent {
  return withListsOrdered(line, event, 1);
}

function withListsOrdered(line: number, event: NormalizedEvent, rows: number): StagedEvent {
  const { attributes, ordered } = inStoredListOrder(event.attributes);
  return { line, event: attributes === event.attributes ? event : { ...event, attributes }, rows, listsOrdered: ordered };
}

const severityRank = (event: NormalizedEvent) => SEVERITIES.indexOf(event.severity);
const recordKey = (e: NormalizedEvent) => `${e.bbl}\u0000${e.source_record_id}\u0000${e.event_type}`;

interface Group {
  key: string;
  rows: number;
  lead: { line: number; event: NormalizedEvent };
  firstOn: string | null;
  lastClosed: string | null;
  lists: Map<string, DistinctItems>;
}

/**
 * Rows of one record that follow each other in a file (an HPD complaint: one row per problem) are
 * staged as one row, collapsed by the rules of the merge (merge-events.ts, step 2): the most severe
 * row leads (the first of them on a tie), the earliest date and the latest closing date are kept,
 * list attributes are the union of the rows' items, in the order the merge stores them. Staging a
 * complaint once instead of once per problem saves encoding, COPY and most of the merge's collapse;
 * repeats that are not adjacent are still collapsed by the merge, which counts the rows each staged
 * row stands for.
 *
 * Only rows that yield exactly one event are grouped, so the file rows of a staged row are its own.
 */
export class AdjacentRows {
  private group: Group | null = null;

  /** `enabled` false: every row is staged as it is (sources whose repeats follow other rules). */
  constructor(private readonly enabled: boolean) {}

  /** Adds a row's only event; returns the group it ends, if any. */
  push(line: number, event: NormalizedEvent): StagedEvent | null {
    const key = this.enabled ? recordKey(event) : '';
    const group = this.group;
    if (group && this.enabled && group.key === key) {
      group.rows += 1;
      if (severityRank(event) < severityRank(group.lead.event)) group.lead = { line, event };
      if (event.occurred_on !== null && (group.firstOn === null || event.occurred_on < group.firstOn)) group.firstOn = event.occurred_on;
      if (event.closed_on !== null && (group.lastClosed === null || event.closed_on > group.lastClosed)) group.lastClosed = event.closed_on;
      addListItems(group.lists, event);
      return null;
    }
    const ended = this.flush();
    this.group = { key, rows: 1, lead: { line, event }, firstOn: event.occurred_on, lastClosed: event.closed_on, lists: new Map() };
    addListItems(this.group.lists, event);
    return ended;
  }

  /** Ends the current group (at the end of the file, or before a row that is not grouped). */
  flush(): StagedEvent | null {
    const group = this.group;
    this.group = null;
    if (!group) return null;
    const { lead, rows } = group;
    if (rows === 1) return stagedAlone(lead.line, lead.event);
    const attributes = { ...lead.event.attributes };
    for (const [name, items] of group.lists) if (items.items.length > 0) attributes[name] = items.items;
    return withListsOrdered(lead.line, { ...lead.event, occurred_on: group.firstOn, closed_on: group.lastClosed, attributes }, rows);
  }
}

/** Adds the items of an event's list attributes, each distinct item once. */
function addListItems(lists: Map<string, DistinctItems>, event: NormalizedEvent): void {
  for (const name of LIST_ATTRIBUTES) {
    const value = event.attributes[name];
    if (!Array.isArray(value)) continue;
    let items = lists.get(name);
    if (!items) lists.set(name, (items = new DistinctItems()));
    for (const item of value) items.add(item);
  }
}

/**
 * The distinct items of a list in the order first seen, distinct as jsonb values are
 * (`jsonb_agg(DISTINCT ...)` in the merge). Equal items have the same problem id, so an item is
 * printed as jsonb only when it shares its id with an item already there: the problems of one
 * complaint have different ids, and printing each cost a tenth of a complaint row's staging.
 */
export class DistinctItems {
  readonly items: unknown[] = [];
  private readonly byId = new Map<string, unknown[]>();

  add(item: unknown): void {
    const id = problemIdOf(item);
    const same = this.byId.get(id);
    if (!same) {
      this.byId.set(id, [item]);
      this.items.push(item);
      return;
    }
    const text = jsonbText(item);
    if (same.some((other) => jsonbText(other) === text)) return;
    same.push(item);
    this.items.push(item);
  }
}

/** What equal items share: a problem's id, or the whole item printed as jsonb (a 311 key, anything else). */
function problemIdOf(item: unknown): string {
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
    const id = (item as Record<string, unknown>)['problem_id'];
    if (typeof id === 'number' || typeof id === 'string') return `${typeof id} ${id}`;
  }
  return `= ${jsonbText(item)}`;
}
