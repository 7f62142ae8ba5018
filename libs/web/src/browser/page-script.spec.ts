import { pageScriptSource } from './page-script';

/** Just enough of a DOM element for the page script: attributes, children, text and listeners. */
class FakeElement {
  readonly attributes = new Map<string, string>();
  readonly children: (FakeElement | string)[] = [];
  readonly listeners = new Map<string, (event: { preventDefault(): void }) => void>();
  hidden = true;
  value = '';

  constructor(readonly tag: string) {}

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }

  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }

  append(...nodes: (FakeElement | string)[]): void {
    this.children.push(...nodes);
  }

  replaceChildren(...nodes: (FakeElement | string)[]): void {
    this.children.splice(0, this.children.length, ...nodes);
  }

  addEventListener(type: string, listener: (event: { preventDefault(): void }) => void): void {
    this.listeners.set(type, listener);
  }

  get textContent(): string {
    return this.children.map((child) => (typeof child === 'string' ? child : child.textContent)).join('');
  }

  set textContent(text: string) {
    this.replaceChildren(text);
  }

  /** This element and every element below it, depth first. */
  all(): FakeElement[] {
    return [this, ...this.children.flatMap((child) => (typeof child === 'string' ? [] : child.all()))];
  }

  find(predicate: (element: FakeElement) => boolean): FakeElement[] {
    return this.all().filter(predicate);
  }
}

interface Page {
  byId: Map<string, FakeElement>;
  title: string;
  replaced: string[];
}

/** What the page script fetched, with the headers it sent. */
const fetched: { url: string; headers: Record<string, string> }[] = [];

/** Runs app.js as the server sends it, on a page holding elements with the given ids. */
async function runAppJs(config: object, ids: readonly string[], answers: Record<string, unknown>, search = ''): Promise<Page> {
  const page: Page = { byId: new Map(ids.map((id) => [id, new FakeElement(id)])), title: '', replaced: [] };
  page.byId.set('bhis-config', Object.assign(new FakeElement('script'), { textContent: JSON.stringify(config) }));
  const document = {
    getElementById: (id: string) => page.byId.get(id) ?? null,
    createElement: (tag: string) => new FakeElement(tag),
    createElementNS: (_namespace: string, tag: string) => new FakeElement(tag),
    set title(title: string) {
      page.title = title;
    },
  };
  const window = { location: { search } };
  const history = { replaceState: (_state: unknown, _title: string, url: string) => page.replaced.push(url) };
  const fetch = async (url: string, init?: { headers?: Record<string, string> }) => {
    fetched.push({ url, headers: init?.headers ?? {} });
    if (!url.startsWith('/web/data/')) throw new Error(`the page read ${url}, not its data path`);
    const path = url.replace(/^\/web\/data/, '').replace(/\?.*$/, '');
    return { ok: path in answers, status: path in answers ? 200 : 404, json: async () => ({ data: answers[path], error: { code: 'not_found', message: `no ${path}` } }) };
  };
  new Function('document', 'window', 'history', 'fetch', pageScriptSource())(document, window, history, fetch);
  await new Promise((resolve) => setTimeout(resolve, 0));
  return page;
}

describe('app.js as served', () => {
  it('searches the address of the query string and lists the buildings found', async () => {
    const summary = { bbl: '1000010001', address: '123 WEST 45 STREET', zipcode: '10036', residential_units: 1200, total_score: 87, grade: 'F', label: 'Severe' };
    const page = await runAppJs({}, ['search-form', 'address', 'search-status', 'search-results'], { '/buildings/search': { buildings: [summary] } }, '?address=123+w+45th');
    expect(page.byId.get('address')?.value).toBe('123 w 45th');
    expect(page.byId.get('search-status')?.textContent).toBe('1 building found.');
    const links = page.byId.get('search-results')?.find((e) => e.tag === 'a') ?? [];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/buildings/1000010001']);
    expect(links[0].textContent).toBe('F123 WEST 45 STREETManhattan 10036 · BBL 1000010001 · 1,200 units87Severe');
  });

  it('reads its data from the pages\' own path, sending no key', async () => {
    fetched.length = 0;
    await runAppJs({}, ['search-form', 'address', 'search-status', 'search-results'], {}, '?address=123+w+45th');
    expect(fetched.map((f) => f.url)).toEqual(['/web/data/buildings/search?address=123%20w%2045th&limit=10']);
    for (const { headers } of fetched) expect(Object.keys(headers).map((h) => h.toLowerCase())).toEqual(['accept']);
    expect(pageScriptSource()).not.toMatch(/sk_(live|demo)_|X-API-Key|Authorization/i);
  });
});
