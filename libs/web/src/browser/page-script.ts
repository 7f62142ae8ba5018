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

/** What the server put in `#bhis-config` (never a key): nothing the search needs yet. */
type PageConfig = object;
interface Config {
  /** Where the pages read their data (`/web/data`: the read endpoints, without a key). */
  dataBase: string;
}
interface Envelope<T> {
  data: T;
  error?: { code: string; message: string };
}
/** Where the search form shows what it found. */
interface SearchView {
  status: HTMLElement;
  results: HTMLElement;
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

/** The lookup page's search form (the report pages are rendered on the server and need no script). */
function pageScript(dataBase: string): void {
  const config: Config = { ...readConfig(), dataBase };
  wireSearch(config);
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

function formatInteger(value: number): string {
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(value);
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

/** Every function of app.js; pageScript calls the others. */
const PAGE_SCRIPT_FUNCTIONS: readonly ((...args: never[]) => unknown)[] = [
  pageScript,
  readConfig,
  byId,
  el,
  formatInteger,
  api,
  gradeBadge,
  wireSearch,
  search,
  searchOutcome,
  searchResult,
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
