/// <reference lib="dom" />
import { apiPath } from '@bhis/envelope';
import { PAGES_DATA_PATH } from '@bhis/read-api';

/*
 * The scripts of the pages. They run in the browser: the server sends the source of every function
 * in PAGE_SCRIPT_FUNCTIONS (see pageScriptSource), so these functions use only each other and
 * browser globals: no imports and no module-level values, which would not be sent. Interfaces and
 * types are erased and free to live here. What they need of the server's constants (the API's base
 * path of the pages' data) is passed to the call that starts them, written into the served text.
 */

/** What the server put in `#bhis-config`: the BBL of a report page (never a key). */
interface PageConfig {
  bbl?: string;
}
interface Config extends PageConfig {
  /** Where the pages read their data (`/web/data`: the read endpoints, without a key). */
  dataBase: string;
}
interface Envelope<T> {
  data: T;
  error?: { code: string; message: string };
}
interface ComponentScore {
  score: number;
  grade: string;
}
interface Scores {
  total_score: number;
  health_score: number;
  grade: string;
  label: string;
  scorer_id: string;
  components: Record<string, ComponentScore>;
  flags: string[];
}
interface Confidence {
  score: number;
  tier: string;
  flags: string[];
  dimensions: Record<string, number>;
  primary_sources: number;
  active_families: number;
  /** why the building cannot be graded with confidence (a known limit), or null */
  reason?: string | null;
}
/** Where the search form shows what it found. */
interface SearchView {
  status: HTMLElement;
  results: HTMLElement;
}
interface Building {
  bbl: string;
  address: string;
  zipcode: string | null;
  borough_name: string;
  residential_units: number;
  year_built: number | null;
  building_class: string | null;
  owner_name: string | null;
  scores: Scores | null;
  counts: Record<string, number> | null;
  confidence: Confidence | null;
}
interface Summary {
  bbl: string;
  address: string;
  zipcode: string | null;
  residential_units: number;
  total_score: number;
  grade: string;
  label: string;
}
interface TrajectoryPoint {
  as_of: string;
  scorer_id: string;
  total_score: number;
  grade: string;
}
interface BuildingEvent {
  id: string;
  source: string;
  category: string;
  severity: string;
  event_type: string;
  status: string | null;
  occurred_on: string | null;
  description: string | null;
  source_url: string | null;
}

/** The lookup and report pages: the search form when there is one, the report when the page names a BBL. */
function pageScript(dataBase: string): void {
  const config: Config = { ...readConfig(), dataBase };
  wireSearch(config);
  if (config.bbl) void loadReport(config, config.bbl);
}

function readConfig(): PageConfig {
  const configElement = document.getElementById('bhis-config');
  return configElement?.textContent ? (JSON.parse(configElement.textContent) as PageConfig) : {};
}

// ---- DOM and formatting ----

function byId(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing`);
  return element;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

function svg(tag: string, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElement {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

function humanize(key: string): string {
  const acronyms = new Set(['hpd', 'dob', 'nyc', 'ecb', 'fdny', 'aep', 'dof']);
  const text = key
    .split(/[_-]+/)
    .map((word) => (acronyms.has(word.toLowerCase()) ? word.toUpperCase() : word))
    .join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function formatInteger(value: number): string {
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(value);
}

function formatOneDecimal(value: number): string {
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

function formatPercent(value: number): string {
  return new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 0 }).format(value);
}

function formatDate(iso: string | null): string {
  if (!iso) return 'undated';
  const date = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(date);
}

async function api<T>(config: Config, path: string): Promise<T> {
  const response = await fetch(`${config.dataBase}${path}`, { headers: { Accept: 'application/json' } });
  const body = (await response.json()) as Envelope<T>;
  if (!response.ok) throw new Error(body.error?.message ?? `The API answered ${response.status}.`);
  return body.data;
}

function gradeBadge(grade: string, label: string): HTMLElement {
  return el('span', { class: `badge grade-${grade.toLowerCase()}`, title: label }, grade);
}

// ---- search ----

function wireSearch(config: Config): void {
  const form = document.getElementById('search-form') as HTMLFormElement | null;
  if (!form) return;
  const input = byId('address') as HTMLInputElement;
  const view: SearchView = { status: byId('search-status'), results: byId('search-results') };
  const initial = new URLSearchParams(window.location.search).get('address');
  if (initial) input.value = initial;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const address = input.value.trim();
    if (address.length < 2) return;
    history.replaceState(null, '', `/?address=${encodeURIComponent(address)}`);
    void search(config, view, address);
  });
  if (initial) void search(config, view, initial);
}

async function search(config: Config, { status, results }: SearchView, address: string): Promise<void> {
  results.replaceChildren();
  status.textContent = 'Searching…';
  try {
    const data = await api<{ buildings: Summary[] }>(config, `/buildings/search?address=${encodeURIComponent(address)}&limit=10`);
    status.textContent = searchOutcome(address, data.buildings.length);
    for (const b of data.buildings) results.append(searchResult(b));
  } catch (error) {
    status.textContent = error instanceof Error ? error.message : 'The search failed.';
  }
}

function searchOutcome(address: string, found: number): string {
  return found === 0 ? `No building matches “${address}”.` : `${found} building${found === 1 ? '' : 's'} found.`;
}

function searchResult(b: Summary): HTMLElement {
  const boroughs = ['', 'Manhattan', 'Bronx', 'Brooklyn', 'Queens', 'Staten Island'];
  const place = [boroughs[Number(b.bbl[0])] ?? '', b.zipcode ?? ''].filter(Boolean).join(' ');
  return el(
    'li',
    {},
    el(
      'a',
      { href: `/buildings/${b.bbl}`, class: 'result' },
      gradeBadge(b.grade, b.label),
      el('span', { class: 'result-address' }, b.address, el('small', {}, `${place} · BBL ${b.bbl} · ${formatInteger(b.residential_units)} units`)),
      el('span', { class: 'result-score' }, `${formatInteger(b.total_score)}`, el('small', {}, b.label)),
    ),
  );
}

// ---- report ----

function componentsChart(components: Record<string, ComponentScore>): SVGElement {
  const entries = Object.entries(components);
  const rowHeight = 30;
  const labelWidth = 190;
  const barWidth = 300;
  const height = entries.length * rowHeight + 24;
  const chart = svg('svg', { viewBox: `0 0 ${labelWidth + barWidth + 60} ${height}`, role: 'img', 'aria-labelledby': 'components-title', class: 'bars' });
  chart.append(svg('title', { id: 'components-title' }, `Component scores: ${entries.map(([key, c]) => `${humanize(key)} ${formatOneDecimal(c.score)}`).join(', ')}`));
  for (const tick of [0, 25, 50, 75, 100]) {
    const x = labelWidth + (tick / 100) * barWidth;
    chart.append(svg('line', { x1: x, x2: x, y1: 0, y2: height - 20, class: 'gridline' }));
    chart.append(svg('text', { x, y: height - 6, class: 'tick', 'text-anchor': 'middle' }, String(tick)));
  }
  entries.forEach(([key, component], i) => {
    const y = i * rowHeight + 6;
    chart.append(svg('text', { x: labelWidth - 8, y: y + 14, class: 'bar-label', 'text-anchor': 'end' }, humanize(key)));
    chart.append(svg('rect', { x: labelWidth, y, width: barWidth, height: 18, rx: 3, class: 'bar-track' }));
    const bar = svg('rect', { x: labelWidth, y, width: Math.max(1, (component.score / 100) * barWidth), height: 18, rx: 3, class: `bar grade-${component.grade.toLowerCase()}`, 'data-component': key, 'data-score': component.score });
    chart.append(bar);
    chart.append(svg('text', { x: labelWidth + barWidth + 8, y: y + 14, class: 'bar-value' }, formatOneDecimal(component.score)));
  });
  return chart;
}

function trajectoryChart(points: TrajectoryPoint[]): Node {
  if (points.length === 0) return el('p', { class: 'hint' }, 'No score history yet.');
  const width = 640;
  const height = 220;
  const pad = { left: 40, right: 16, top: 12, bottom: 34 };
  const times = points.map((p) => new Date(`${p.as_of}T00:00:00Z`).getTime());
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const x = (t: number) => pad.left + (t1 === t0 ? 0.5 : (t - t0) / (t1 - t0)) * (width - pad.left - pad.right);
  const y = (score: number) => pad.top + (1 - score / 100) * (height - pad.top - pad.bottom);
  const first = points[0];
  const last = points[points.length - 1];
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'trajectory-title', class: 'line-chart' });
  chart.append(
    svg('title', { id: 'trajectory-title' }, `Distress score from ${formatDate(first.as_of)} (${formatInteger(first.total_score)}) to ${formatDate(last.as_of)} (${formatInteger(last.total_score)}), ${points.length} points`),
  );
  for (const tick of [0, 25, 50, 75, 100]) {
    chart.append(svg('line', { x1: pad.left, x2: width - pad.right, y1: y(tick), y2: y(tick), class: 'gridline' }));
    chart.append(svg('text', { x: pad.left - 6, y: y(tick) + 4, class: 'tick', 'text-anchor': 'end' }, String(tick)));
  }
  chart.append(svg('text', { x: pad.left, y: height - 8, class: 'tick' }, formatDate(first.as_of)));
  chart.append(svg('text', { x: width - pad.right, y: height - 8, class: 'tick', 'text-anchor': 'end' }, formatDate(last.as_of)));
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(times[i]).toFixed(1)},${y(p.total_score).toFixed(1)}`).join(' ');
  chart.append(svg('path', { d: path, class: 'line' }));
  points.forEach((p, i) => {
    chart.append(
      svg(
        'circle',
        { cx: x(times[i]).toFixed(1), cy: y(p.total_score).toFixed(1), r: 3.5, class: `point grade-${p.grade.toLowerCase()}`, 'data-score': p.total_score, 'data-as-of': p.as_of },
        svg('title', {}, `${formatDate(p.as_of)}: ${formatInteger(p.total_score)} (${p.grade}, ${p.scorer_id})`),
      ),
    );
  });
  return chart;
}

function definitionList(rows: [string, string][]): HTMLElement {
  const list = el('dl', { class: 'pairs' });
  for (const [term, value] of rows) list.append(el('dt', {}, term), el('dd', {}, value));
  return list;
}

function tagList(items: string[], empty: string): HTMLElement {
  if (items.length === 0) return el('p', { class: 'hint' }, empty);
  return el('ul', { class: 'tags' }, ...items.map((item) => el('li', {}, el('code', {}, item))));
}

function eventsTable(events: BuildingEvent[]): HTMLElement {
  if (events.length === 0) return el('p', { class: 'hint' }, 'No records for this building.');
  const rows = events.map((e) =>
    el(
      'tr',
      {},
      el('td', { class: 'nowrap' }, formatDate(e.occurred_on)),
      el('td', {}, e.source_url ? el('a', { href: e.source_url, rel: 'noopener noreferrer', target: '_blank', class: 'source-link' }, e.source) : e.source),
      el('td', {}, humanize(e.category), el('small', {}, humanize(e.event_type))),
      el('td', {}, el('span', { class: `severity severity-${e.severity}` }, e.severity)),
      el('td', {}, e.status ?? '—'),
      el('td', { class: 'description' }, e.description ?? ''),
    ),
  );
  const head = el('tr', {}, ...['Date', 'Source', 'Category', 'Severity', 'Status', 'Description'].map((h) => el('th', { scope: 'col' }, h)));
  return el('div', { class: 'table-scroll' }, el('table', { class: 'events' }, el('thead', {}, head), el('tbody', {}, ...rows)));
}

async function loadReport(config: Config, bbl: string): Promise<void> {
  const status = byId('report-status');
  const report = byId('report');
  try {
    const [building, trajectory, events] = await Promise.all([
      api<Building>(config, `/buildings/${bbl}`),
      api<{ points: TrajectoryPoint[] }>(config, `/buildings/${bbl}/trajectory?limit=100`),
      api<{ events: BuildingEvent[] }>(config, `/buildings/${bbl}/events?limit=15`),
    ]);
    showBuilding(building);
    byId('trajectory-chart').replaceChildren(trajectoryChart(trajectory.points));
    byId('events').replaceChildren(eventsTable(events.events));
    byId('report-body').hidden = false;
    status.textContent = '';
  } catch (error) {
    status.textContent = error instanceof Error ? error.message : 'The report could not be loaded.';
  } finally {
    report.setAttribute('aria-busy', 'false');
  }
}

function showBuilding(building: Building): void {
  document.title = `${building.address} · Building Health Intelligence Service`;
  byId('report-title').textContent = building.address;
  byId('report-facts').textContent = buildingFacts(building);
  if (building.scores) showScores(building.scores);
  else byId('score').textContent = 'This building has not been scored yet.';
  byId('confidence').replaceChildren(building.confidence ? confidencePanel(building.confidence) : el('p', { class: 'hint' }, 'Not assessed yet.'));
  byId('counts').replaceChildren(
    building.counts
      ? definitionList(Object.entries(building.counts).map(([key, value]): [string, string] => [humanize(key), formatInteger(value)]))
      : el('p', { class: 'hint' }, 'Not counted yet.'),
  );
}

function buildingFacts(building: Building): string {
  return [
    `${building.borough_name}${building.zipcode ? ` ${building.zipcode}` : ''}`,
    `BBL ${building.bbl}`,
    `${formatInteger(building.residential_units)} residential units`,
    building.year_built ? `built ${building.year_built}` : '',
    building.building_class ? `class ${building.building_class}` : '',
    building.owner_name ? `owner ${building.owner_name}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

function showScores(scores: Scores): void {
  byId('grade').replaceChildren(gradeBadge(scores.grade, scores.label), el('span', { class: 'grade-label' }, scores.label));
  byId('score').replaceChildren(
    el('strong', { id: 'total-score' }, formatInteger(scores.total_score)),
    ' / 100 distress score',
    el('small', {}, `Health score ${formatInteger(scores.health_score)} · model ${scores.scorer_id}`),
  );
  byId('components-chart').replaceChildren(componentsChart(scores.components));
  byId('flags').replaceChildren(tagList(scores.flags, 'No flags.'));
}

function confidencePanel(confidence: Confidence): HTMLElement {
  return el(
    'div',
    {},
    el('p', { class: 'confidence' }, el('strong', {}, humanize(confidence.tier)), ` · ${formatOneDecimal(confidence.score * 100)} of 100`),
    confidence.reason ? el('p', { class: 'confidence-reason' }, `Cannot be graded with confidence: ${confidence.reason}`) : '',
    definitionList([
      ...Object.entries(confidence.dimensions).map(([key, value]): [string, string] => [humanize(key), formatPercent(value)]),
      ['Primary sources', formatInteger(confidence.primary_sources)],
      ['Active source families', formatInteger(confidence.active_families)],
    ]),
    tagList(confidence.flags, 'No confidence flags.'),
  );
}

/** Every function of app.js; pageScript calls the others. */
const PAGE_SCRIPT_FUNCTIONS: readonly ((...args: never[]) => unknown)[] = [
  pageScript,
  readConfig,
  byId,
  el,
  svg,
  humanize,
  formatInteger,
  formatOneDecimal,
  formatPercent,
  formatDate,
  api,
  gradeBadge,
  wireSearch,
  search,
  searchOutcome,
  searchResult,
  componentsChart,
  trajectoryChart,
  definitionList,
  tagList,
  eventsTable,
  loadReport,
  showBuilding,
  buildingFacts,
  showScores,
  confidencePanel,
];

/** The text of app.js: the functions in one scope of their own (no globals), then the call that starts the page. */
export function pageScriptSource(): string {
  return `(() => {\n${PAGE_SCRIPT_FUNCTIONS.map((f) => f.toString()).join('\n\n')}\n\n${pageScript.name}(${JSON.stringify(PAGES_DATA_PATH)});\n})();\n`;
}

/** Starts Swagger UI on /docs with the OpenAPI document of this deployment. */
function docsScript(openApiUrl: string): void {
  const ui = (window as unknown as { SwaggerUIBundle?: (options: Record<string, unknown>) => unknown }).SwaggerUIBundle;
  if (!ui) return;
  ui({ url: openApiUrl, dom_id: '#swagger-ui', validatorUrl: null, deepLinking: true, tryItOutEnabled: false });
}

/** The text of docs.js: docsScript, called with the path of the OpenAPI document. */
export function docsScriptSource(): string {
  return `(${docsScript.toString()})(${JSON.stringify(apiPath('/openapi.json'))});\n`;
}
