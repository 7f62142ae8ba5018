import MarkdownIt from 'markdown-it';
import { apiPath } from '@bhis/envelope';
import { escapeHtml, renderPage } from './html';

const CAVEAT =
  'The score is a ranking signal, not a verdict: it is not a legal finding, a safety certification or a unit-level inspection. ' +
  'Complaints are reports, not confirmed violations. Check the dates, statuses and sources of the records below.';

/** What the page script needs: the BBL of a report page. No key: the pages read from their own data path. */
interface PageScriptConfig {
  bbl?: string;
}

const SEARCH_FORM = `<form class="search" id="search-form" role="search" action="/" method="get">
<label for="address">Search by address</label>
<div class="search-row">
<input id="address" name="address" type="search" autocomplete="street-address" placeholder="e.g. 123 West 45 Street" required minlength="2" maxlength="120">
<button type="submit">Search</button>
</div>
<p class="hint">Or open a building by its BBL: <code>/buildings/1000010001</code>.</p>
</form>
<div id="search-status" class="status" role="status" aria-live="polite"></div>
<ol id="search-results" class="results"></ol>`;

export function homePage(): string {
  const config: PageScriptConfig = {};
  return renderPage({
    title: 'Building lookup',
    section: 'lookup',
    config: { ...config },
    scripts: ['/assets/web/app.js'],
    body: `<h1>Building health lookup</h1>
<p class="lede">Distress scores for New York City residential buildings, from public records: violations, complaints, permits, litigation and more.</p>
${SEARCH_FORM}
<p class="caveat">${CAVEAT}</p>`,
  });
}

export function buildingPage(bbl: string): string {
  const config: PageScriptConfig = { bbl };
  return renderPage({
    title: `Building ${bbl}`,
    section: 'lookup',
    config: { ...config },
    scripts: ['/assets/web/app.js'],
    body: `<article id="report" class="report" data-bbl="${escapeHtml(bbl)}" aria-busy="true">
<h1 id="report-title">Building ${escapeHtml(bbl)}</h1>
<div id="report-status" class="status" role="status" aria-live="polite">Loading the report…</div>
<div id="report-body" hidden>
<p id="report-facts" class="facts"></p>
<section class="summary" aria-labelledby="score-heading">
<h2 id="score-heading" class="visually-hidden">Score</h2>
<div id="grade" class="grade" aria-describedby="score-caveat"></div>
<div class="score-text">
<p id="score" class="score"></p>
<p id="score-caveat" class="caveat">${CAVEAT}</p>
</div>
</section>
<div class="grid">
<section aria-labelledby="components-heading"><h2 id="components-heading">Components</h2>
<p class="hint">0 is no sign of distress, 100 the most distressed.</p><div id="components-chart" class="chart"></div></section>
<section aria-labelledby="confidence-heading"><h2 id="confidence-heading">Confidence</h2><div id="confidence"></div></section>
<section aria-labelledby="flags-heading"><h2 id="flags-heading">Flags</h2><div id="flags"></div></section>
<section aria-labelledby="counts-heading"><h2 id="counts-heading">Record counts</h2><div id="counts"></div></section>
</div>
<section aria-labelledby="trajectory-heading"><h2 id="trajectory-heading">Score over time</h2><div id="trajectory-chart" class="chart"></div></section>
<section aria-labelledby="events-heading"><h2 id="events-heading">Recent records</h2><div id="events"></div></section>
</div>
</article>
<p><a href="/">← Search another building</a></p>`,
  });
}

export function notFoundPage(message: string): string {
  return renderPage({ title: 'Not found', section: 'lookup', body: `<h1>Not found</h1><p>${escapeHtml(message)}</p>${SEARCH_FORM}`, scripts: ['/assets/web/app.js'], config: {} });
}

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** The Markdown without its HTML comments (notes for the file's editors, which markdown-it would print as text). */
function withoutHtmlComments(text: string): string {
  return text.replace(/<!--[\s\S]*?-->\n?/g, '');
}

export function methodologyPage(methodologyMarkdown: string): string {
  return renderPage({
    title: 'Methodology',
    section: 'methodology',
    body: `<div class="prose">${markdown.render(withoutHtmlComments(methodologyMarkdown))}</div>`,
  });
}

export function docsPage(): string {
  return renderPage({
    title: 'API reference',
    section: 'docs',
    styles: ['/assets/swagger-ui/swagger-ui.css'],
    scripts: ['/assets/swagger-ui/swagger-ui-bundle.js', '/assets/web/docs.js'],
    body: `<h1>API reference</h1>
<p>Rendered from the <a href="${apiPath('/openapi.json')}">OpenAPI 3.1 document</a>. Also as Markdown: <a href="/api-docs.md">api-docs.md</a>.</p>
<div id="swagger-ui"></div>`,
  });
}
