import type { PagesEvent, PagesHistoryQuery } from '@bhis/read-api';
import { EVENT_STATUSES } from '@bhis/domain';
import { SOURCES } from '@bhis/sources';
import { eventsTable, humanize } from './building-page';
import { escapeHtml as e, renderPage } from './html';

/** The filters the history page takes from its query string (the events API's, plus status). */
export const HISTORY_FILTERS = ['source', 'status', 'since', 'until'] as const;

export interface HistoryPageData {
  bbl: string;
  address: string;
  query: PagesHistoryQuery;
  events: readonly PagesEvent[];
  next: string | null;
}

function select(name: string, label: string, options: readonly { value: string; text: string }[], selected: string | undefined): string {
  const choices = [`<option value="">${e(`Any ${label.toLowerCase()}`)}</option>`, ...options.map((o) => `<option value="${e(o.value)}"${o.value === selected ? ' selected' : ''}>${e(o.text)}</option>`)];
  return `<label for="filter-${name}">${e(label)}</label><select id="filter-${name}" name="${name}">${choices.join('')}</select>`;
}

/** The query string of the page with these filters (and a cursor). */
export function historyHref(bbl: string, query: PagesHistoryQuery, cursor?: string): string {
  const params = new URLSearchParams();
  for (const name of HISTORY_FILTERS) {
    const value = query[name];
    if (value) params.set(name, value);
  }
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return `/buildings/${bbl}/history${text ? `?${text}` : ''}`;
}

/** The full record history of a building, filtered and paginated on the server: a form and links, no script. */
export function historyPage(data: HistoryPageData): string {
  const { bbl, query } = data;
  const sources = SOURCES.filter((s) => s.produces.events.length > 0).map((s) => ({ value: s.key, text: s.name }));
  const statuses = EVENT_STATUSES.map((s) => ({ value: s, text: humanize(s) }));
  const filtered = HISTORY_FILTERS.some((name) => query[name]);
  const body = `<h1 id="history-title">Record history: ${e(data.address)}</h1>
<p class="facts">BBL ${e(bbl)} · <a href="/buildings/${e(bbl)}">← Back to the building report</a></p>
<form class="filters" id="history-filters" method="get" action="/buildings/${e(bbl)}/history">
<div class="filter">${select('source', 'Source', sources, query.source)}</div>
<div class="filter">${select('status', 'Status', statuses, query.status)}</div>
<div class="filter"><label for="filter-since">From</label><input type="date" id="filter-since" name="since" value="${e(query.since ?? '')}"></div>
<div class="filter"><label for="filter-until">To</label><input type="date" id="filter-until" name="until" value="${e(query.until ?? '')}"></div>
<div class="filter filter-actions"><button type="submit">Filter</button>${filtered ? ` <a href="/buildings/${e(bbl)}/history">Clear</a>` : ''}</div>
</form>
<p class="hint">Newest first, undated records last. A date range leaves undated records out.</p>
<section aria-label="Records" id="history">${eventsTable(data.events, filtered ? 'No records match these filters here.' : 'No records for this building.')}</section>
<nav class="pager" aria-label="Pages">${query.cursor ? `<a href="${e(historyHref(bbl, query))}" id="first-page">First page</a>` : ''}${data.next ? ` <a href="${e(historyHref(bbl, query, data.next))}" id="next-page" rel="next">Next page →</a>` : ''}</nav>`;
  return renderPage({ title: `Record history of ${data.address}`, section: 'lookup', body });
}
