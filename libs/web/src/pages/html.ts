import { apiPath } from '@bhis/envelope';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** JSON for a `<script type="application/json">` block: `<` escaped so the text cannot close the element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * Self only: no inline script or style, no other host; images also from the map tile server the
 * operator configured (its origin), when there is one.
 */
export function pageCsp(tileOrigin?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data:${tileOrigin ? ` ${tileOrigin}` : ''}`,
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const PAGE_CSP = pageCsp();

export interface PageOptions {
  title: string;
  /** Marks the current item of the navigation. */
  section: 'lookup' | 'methodology' | 'docs';
  body: string;
  scripts?: string[];
  styles?: string[];
  /** Read by the page script from `#bhis-config` (never executed). */
  config?: Record<string, unknown>;
}

const NAV: { section: PageOptions['section']; href: string; label: string }[] = [
  { section: 'lookup', href: '/', label: 'Building lookup' },
  { section: 'methodology', href: '/methodology', label: 'Methodology' },
  { section: 'docs', href: '/docs', label: 'API reference' },
];

export function renderPage(options: PageOptions): string {
  const nav = NAV.map(
    (item) => `<a href="${item.href}"${item.section === options.section ? ' aria-current="page"' : ''}>${item.label}</a>`,
  ).join('');
  const styles = ['/assets/web/site.css', ...(options.styles ?? [])].map((href) => `<link rel="stylesheet" href="${href}">`).join('\n');
  const scripts = (options.scripts ?? []).map((src) => `<script src="${src}" defer></script>`).join('\n');
  const config = options.config ? `<script type="application/json" id="bhis-config">${jsonForScript(options.config)}</script>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · Building Health Intelligence Service</title>
<link rel="icon" href="data:,">
${styles}
${config}
${scripts}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site-header"><div class="wrap">
<a class="brand" href="/">Building Health <span>Intelligence Service</span></a>
<nav aria-label="Main">${nav}</nav>
</div></header>
<main id="main" class="wrap">
${options.body}
</main>
<footer class="site-footer"><div class="wrap">
<p>Scores are built from New York City public records. They are a ranking signal, not a verdict: not a legal finding, a safety certification or a unit-level inspection.</p>
<p><a href="/llms.txt">llms.txt</a> · <a href="/api-docs.md">api-docs.md</a> · <a href="/methodology.md">methodology.md</a> · <a href="${apiPath('/openapi.json')}">OpenAPI</a></p>
</div></footer>
</body>
</html>
`;
}
