import MarkdownIt from 'markdown-it';
import { apiPath } from '@bhis/envelope';
import { CAVEAT } from './building-page';
import { escapeHtml, renderPage } from './html';


/** What the page script needs (no key: the search reads the pages' own data path). */
type PageScriptConfig = object;

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

export function notFoundPage(message: string): string {
  return renderPage({ title: 'Not found', section: 'lookup', body: `<h1>Not found</h1><p id="not-found">${escapeHtml(message)}</p>${SEARCH_FORM}`, scripts: ['/assets/web/app.js'], config: {} });
}

/** A request the page cannot answer as asked (a bad filter), with what to change. */
export function badRequestPage(message: string, back: { href: string; text: string }): string {
  return renderPage({
    title: 'Cannot show this page',
    section: 'lookup',
    body: `<h1>Cannot show this page</h1><p id="bad-request">${escapeHtml(message)}</p><p><a href="${escapeHtml(back.href)}">${escapeHtml(back.text)}</a></p>`,
  });
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
