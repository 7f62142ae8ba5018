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

const REPORT_IDS = ['report-status', 'report', 'report-title', 'report-facts', 'report-body', 'grade', 'score', 'components-chart', 'flags', 'confidence', 'counts', 'trajectory-chart', 'events'];

const BUILDING = {
  bbl: '1000010001',
  address: '123 WEST 45 STREET',
  zipcode: '10036',
  borough_name: 'Manhattan',
  residential_units: 1200,
  year_built: 1925,
  building_class: 'D7',
  owner_name: null,
  scores: {
    total_score: 87,
    health_score: 4,
    grade: 'F',
    label: 'Severe',
    scorer_id: 'distress_v10_2',
    components: { living_conditions: { score: 91.5, grade: 'F' }, complaint_burden: { score: 40, grade: 'C' } },
    flags: ['aep-criteria-met'],
  },
  counts: { hpd_violations_open: 1234 },
  confidence: { score: 0.92, tier: 'high', flags: [], dimensions: { coverage: 0.92 }, primary_sources: 6, active_families: 5 },
};

describe('app.js as served', () => {
  it('fills the report from the API', async () => {
    const answers = {
      '/buildings/1000010001': BUILDING,
      '/buildings/1000010001/trajectory': { points: [{ as_of: '2024-01-01', scorer_id: 'distress_v10_1', total_score: 80, grade: 'F' }, { as_of: '2025-01-01', scorer_id: 'distress_v10_2', total_score: 87, grade: 'F' }] },
      '/buildings/1000010001/events': { events: [{ id: 'e1', source: 'hpd_violations', category: 'mold', severity: 'high', event_type: 'hpd_violation', status: 'open', occurred_on: '2024-05-02', description: 'Mold', source_url: 'https://example.org/e1' }] },
    };
    const page = await runAppJs({ bbl: '1000010001' }, REPORT_IDS, answers);
    const element = (id: string) => page.byId.get(id) as FakeElement;
    expect(element('report-status').textContent).toBe('');
    expect(element('report').getAttribute('aria-busy')).toBe('false');
    expect(element('report-body').hidden).toBe(false);
    expect(page.title).toBe('123 WEST 45 STREET · Building Health Intelligence Service');
    expect(element('report-facts').textContent).toBe('Manhattan 10036 · BBL 1000010001 · 1,200 residential units · built 1925 · class D7');
    expect(element('score').textContent).toBe('87 / 100 distress score' + 'Health score 4 · model distress_v10_2');
    expect(element('grade').textContent).toBe('FSevere');
    const bars = element('components-chart').find((e) => e.getAttribute('class')?.startsWith('bar ') ?? false);
    expect(bars.map((bar) => bar.getAttribute('data-score'))).toEqual(['91.5', '40']);
    expect(element('components-chart').find((e) => e.tag === 'title')[0].textContent).toBe('Component scores: Living conditions 91.5, Complaint burden 40.0');
    expect(element('trajectory-chart').find((e) => e.tag === 'circle').map((c) => c.getAttribute('data-score'))).toEqual(['80', '87']);
    // each point names the model it was computed with
    expect(element('trajectory-chart').find((e) => e.tag === 'title').map((t) => t.textContent).filter((t) => t.includes('distress_'))).toEqual([
      expect.stringContaining('(F, distress_v10_1)'),
      expect.stringContaining('(F, distress_v10_2)'),
    ]);
    expect(element('confidence').textContent).toContain('High · 92.0 of 100');
    expect(element('confidence').textContent).toContain('Coverage92%');
    expect(element('counts').textContent).toBe('HPD violations open1,234');
    expect(element('events').find((e) => e.tag === 'a')[0].getAttribute('href')).toBe('https://example.org/e1');
    expect(element('events').textContent).toContain('May 2, 2024');
  });

  it('says on the building page that a building under a known limit cannot be graded with confidence, and why', async () => {
    const reason = 'Public housing (HPD ManagementProgram NYCHA or a Housing Authority owner): HPD does not inspect or enforce here.';
    const building = {
      ...BUILDING,
      scores: { ...BUILDING.scores, total_score: 20, grade: 'B', label: 'Cannot be graded with confidence', flags: ['public-housing'] },
      confidence: { ...BUILDING.confidence, tier: 'insufficient', flags: ['public-housing'], reason },
    };
    const page = await runAppJs({ apiKey: 'sk_demo_x', bbl: '1000010001' }, REPORT_IDS, { '/buildings/1000010001': building, '/buildings/1000010001/trajectory': { points: [] }, '/buildings/1000010001/events': { events: [] } });
    const element = (id: string) => page.byId.get(id) as FakeElement;
    expect(element('grade').textContent).toBe('BCannot be graded with confidence');
    expect(element('grade').textContent).not.toContain('Good');
    expect(element('confidence').textContent).toContain(`Cannot be graded with confidence: ${reason}`);
  });

  it('says why the report failed', async () => {
    const page = await runAppJs({ bbl: '1000010001' }, REPORT_IDS, {});
    expect(page.byId.get('report-status')?.textContent).toBe('no /buildings/1000010001');
    expect(page.byId.get('report')?.getAttribute('aria-busy')).toBe('false');
  });

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
    await runAppJs({ bbl: '1000010001' }, REPORT_IDS, {});
    expect(fetched.map((f) => f.url).sort()).toEqual(['/web/data/buildings/1000010001', '/web/data/buildings/1000010001/events?limit=15', '/web/data/buildings/1000010001/trajectory?limit=100']);
    for (const { headers } of fetched) expect(Object.keys(headers).map((h) => h.toLowerCase())).toEqual(['accept']);
    expect(pageScriptSource()).not.toMatch(/sk_(live|demo)_|X-API-Key|Authorization/i);
  });
});
