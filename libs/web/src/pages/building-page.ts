import type { PagesBuilding, PagesEvent, PagesPortfolio, PagesTrajectoryPoint } from '@bhis/read-api';
import { COMPONENT_KEYS } from '@bhis/domain';
import { flagLabel, type BuildingDocument, type RuleCheck, type SignalExplanation } from '@bhis/scoring';
import { boroughMapSvg, inCity, tileMapSvg } from '../map/borough-map';
import { escapeHtml as e, renderPage } from './html';

export const CAVEAT =
  'The score is a ranking signal, not a verdict: it is not a legal finding, a safety certification or a unit-level inspection. ' +
  'Complaints are reports, not confirmed violations. Check the dates, statuses and sources of the records below.';

/** Where the building page may show street tiles from (the operator's WEB_MAP_TILE_URL), if anywhere. */
export interface MapTiles {
  url: string;
  attribution?: string;
}

export interface BuildingPageData {
  building: PagesBuilding;
  trajectory: PagesTrajectoryPoint[];
  recent: PagesEvent[];
  portfolio: PagesPortfolio | null;
  tiles?: MapTiles;
}

const ACRONYMS = new Set(['hpd', 'dob', 'nyc', 'ecb', 'fdny', 'aep', 'dof', 'ucp', 'bc', '5y', '12m']);

export function humanize(key: string): string {
  const text = key
    .split(/[_-]+/)
    .map((word) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word))
    .join(' ')
    .replace(/\b5Y\b/, '(5 years)')
    .replace(/\b12M\b/, '(12 months)')
    .replace(/\bBC\b/, 'B/C');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 0 });
const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' });

export function formatDate(iso: string | null): string {
  if (!iso) return 'undated';
  const date = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

/** The confidence as the API gives it: two decimals, 0-1, with its tier. */
export function formatConfidence(tier: string, score: number): string {
  return `${humanize(tier)} · ${score.toFixed(2)}`;
}

function gradeBadge(grade: string, label: string, id?: string): string {
  return `<span class="badge grade-${e(grade.toLowerCase())}" title="${e(label)}"${id ? ` id="${id}"` : ''}>${e(grade)}</span>`;
}

/** Flags with their labels and explanations; the slug kept whole, for whoever reads the API too. */
export function flagList(slugs: readonly string[], empty: string, id: string): string {
  if (slugs.length === 0) return `<p class="hint" id="${id}">${e(empty)}</p>`;
  const items = slugs.map((slug) => {
    const { label, explanation } = flagLabel(slug);
    return `<li data-flag="${e(slug)}"><strong>${e(label)}</strong>${explanation ? ` <span>${e(explanation)}</span>` : ''} <code class="slug">${e(slug)}</code></li>`;
  });
  return `<ul class="flags" id="${id}">${items.join('')}</ul>`;
}

function pairs(rows: [string, string][]): string {
  return `<dl class="pairs">${rows.map(([term, value]) => `<dt>${e(term)}</dt><dd>${e(value)}</dd>`).join('')}</dl>`;
}

/** Keys in the model's order of components, whatever order the stored document has them in. */
function byComponentOrder<T>(record: Record<string, T>): [string, T][] {
  const rank = (key: string) => {
    const at = (COMPONENT_KEYS as readonly string[]).indexOf(key);
    return at === -1 ? COMPONENT_KEYS.length : at;
  };
  return Object.entries(record).sort(([a], [b]) => rank(a) - rank(b));
}

function componentsChart(components: Record<string, { score: number; grade: string }>): string {
  const entries = byComponentOrder(components);
  const rowHeight = 30;
  const labelWidth = 190;
  const barWidth = 300;
  const height = entries.length * rowHeight + 24;
  const parts: string[] = [];
  parts.push(`<title id="components-title">Component scores: ${e(entries.map(([key, c]) => `${humanize(key)} ${oneDecimal.format(c.score)}`).join(', '))}</title>`);
  for (const tick of [0, 25, 50, 75, 100]) {
    const x = labelWidth + (tick / 100) * barWidth;
    parts.push(`<line x1="${x}" x2="${x}" y1="0" y2="${height - 20}" class="gridline"></line><text x="${x}" y="${height - 6}" class="tick" text-anchor="middle">${tick}</text>`);
  }
  entries.forEach(([key, component], i) => {
    const y = i * rowHeight + 6;
    parts.push(
      `<text x="${labelWidth - 8}" y="${y + 14}" class="bar-label" text-anchor="end">${e(humanize(key))}</text>` +
        `<rect x="${labelWidth}" y="${y}" width="${barWidth}" height="18" rx="3" class="bar-track"></rect>` +
        `<rect x="${labelWidth}" y="${y}" width="${Math.max(1, (component.score / 100) * barWidth).toFixed(1)}" height="18" rx="3" class="bar grade-${e(component.grade.toLowerCase())}" data-component="${e(key)}" data-score="${component.score}"></rect>` +
        `<text x="${labelWidth + barWidth + 8}" y="${y + 14}" class="bar-value">${oneDecimal.format(component.score)}</text>`,
    );
  });
  return `<svg viewBox="0 0 ${labelWidth + barWidth + 60} ${height}" role="img" aria-labelledby="components-title" class="bars">${parts.join('')}</svg>`;
}

function trajectoryChart(points: readonly PagesTrajectoryPoint[]): string {
  if (points.length === 0) return '<p class="hint">No score history yet.</p>';
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
  const parts = [
    `<title id="trajectory-title">Distress score from ${formatDate(first.as_of)} (${integer.format(first.total_score)}) to ${formatDate(last.as_of)} (${integer.format(last.total_score)}), ${points.length} points</title>`,
  ];
  for (const tick of [0, 25, 50, 75, 100]) {
    parts.push(`<line x1="${pad.left}" x2="${width - pad.right}" y1="${y(tick)}" y2="${y(tick)}" class="gridline"></line><text x="${pad.left - 6}" y="${y(tick) + 4}" class="tick" text-anchor="end">${tick}</text>`);
  }
  parts.push(`<text x="${pad.left}" y="${height - 8}" class="tick">${formatDate(first.as_of)}</text><text x="${width - pad.right}" y="${height - 8}" class="tick" text-anchor="end">${formatDate(last.as_of)}</text>`);
  parts.push(`<path d="${points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(times[i]).toFixed(1)},${y(p.total_score).toFixed(1)}`).join(' ')}" class="line"></path>`);
  points.forEach((p, i) => {
    parts.push(
      `<circle cx="${x(times[i]).toFixed(1)}" cy="${y(p.total_score).toFixed(1)}" r="3.5" class="point grade-${e(p.grade.toLowerCase())}" data-score="${p.total_score}" data-as-of="${e(p.as_of)}">` +
        `<title>${formatDate(p.as_of)}: ${integer.format(p.total_score)} (${e(p.grade)}, ${e(p.scorer_id)})</title></circle>`,
    );
  });
  return `<svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="trajectory-title" class="line-chart">${parts.join('')}</svg>`;
}

/** The records as a table; the same for the building page and the history page. */
export function eventsTable(events: readonly PagesEvent[], empty: string): string {
  if (events.length === 0) return `<p class="hint">${e(empty)}</p>`;
  const rows = events.map(
    (ev) =>
      `<tr data-event-id="${e(ev.id)}" data-source="${e(ev.source)}" data-status="${e(ev.status ?? '')}" data-occurred-on="${e(ev.occurred_on ?? '')}"><td class="nowrap">${formatDate(ev.occurred_on)}</td>` +
      `<td>${ev.source_url ? `<a href="${e(ev.source_url)}" rel="noopener noreferrer" target="_blank" class="source-link">${e(ev.source)}</a>` : e(ev.source)}</td>` +
      `<td>${e(humanize(ev.category))}<small>${e(humanize(ev.event_type))}</small></td>` +
      `<td><span class="severity severity-${e(ev.severity)}">${e(ev.severity)}</span></td>` +
      `<td class="event-status">${e(ev.status ?? '—')}${ev.closed_on ? `<small>closed ${formatDate(ev.closed_on)}</small>` : ''}</td>` +
      `<td class="description">${e(ev.description ?? '')}</td></tr>`,
  );
  const head = ['Date', 'Source', 'Category', 'Severity', 'Status', 'Description'].map((h) => `<th scope="col">${h}</th>`).join('');
  return `<div class="table-scroll"><table class="events"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

const RULE_NAMES: Record<string, string> = {
  aep: 'HPD Alternative Enforcement Program (AEP) selection',
  ucp: 'HPD Underlying Conditions Program (UCP)',
  watchlist: 'Public Advocate’s Worst Landlord Watchlist',
};

function publishedRules(rules: Record<string, RuleCheck> | undefined): string {
  if (!rules) return '<p class="hint">Not checked yet.</p>';
  const rows = Object.entries(rules).map(([key, rule]) => {
    const figures = Object.entries(rule.figures)
      .map(([name, value]) => `${e(humanize(name))}: <strong>${number.format(value)}</strong>${rule.thresholds?.[name] !== undefined ? ` of ${number.format(rule.thresholds[name])}` : ''}`)
      .join('<br>');
    const met = rule.met ? 'Met' : rule.thresholds ? 'Not met' : 'Does not apply';
    return `<tr data-rule="${e(key)}"><th scope="row">${e(RULE_NAMES[key] ?? humanize(key))}</th><td class="rule-result rule-${rule.met ? 'met' : 'unmet'}">${met}</td><td>${figures}</td><td class="nowrap">${integer.format(rule.units)}</td></tr>`;
  });
  return `<p class="hint">The city’s published criteria, applied to this building’s records: its figure, then the threshold for a building of its size.</p>
<div class="table-scroll"><table class="events rules"><thead><tr><th scope="col">Rule</th><th scope="col">Result</th><th scope="col">Figures (building / threshold)</th><th scope="col">Units</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function explanationPanel(building: PagesBuilding): string {
  const explanation = building.explanation;
  if (!explanation) return '<p class="hint">No explanation yet: the building has not been scored.</p>';
  const components = byComponentOrder<SignalExplanation[]>(explanation.components)
    .filter(([, signals]) => signals.length > 0)
    .map(([key, signals]) => {
      const items = signals.map(
        (signal) =>
          `<li><span class="contribution">${signal.contribution > 0 ? '+' : ''}${oneDecimal.format(signal.contribution)}</span> ${e(signal.description)} <small>${integer.format(signal.count)} record${signal.count === 1 ? '' : 's'}</small></li>`,
      );
      return `<div class="explained" data-component="${e(key)}"><h3>${e(humanize(key))}</h3><ul>${items.join('')}</ul></div>`;
    });
  const adjustments = explanation.adjustments.map((a) => `<li>${e(a.description)}: ${integer.format(a.from)} → ${integer.format(a.to)} <code class="slug">${e(a.rule)}</code></li>`);
  return `<p class="hint">What contributes most to each component score, in score points (the data of <code>?include=explanation</code>).</p>
${components.length > 0 ? components.join('') : '<p class="hint">No record contributes to any component.</p>'}
${adjustments.length > 0 ? `<h3>Adjustments to the total</h3><ul class="adjustments">${adjustments.join('')}</ul>` : ''}`;
}

function mapPanel(document: PagesBuilding['document'], tiles: MapTiles | undefined): string {
  const { latitude, longitude } = document;
  if (latitude === null || longitude === null || !inCity(latitude, longitude)) return '<p class="hint">No location on record.</p>';
  const outline = boroughMapSvg({ latitude, longitude, borough: document.borough, label: document.address });
  const street = tiles
    ? `<figure class="tiles">${tileMapSvg(tiles.url, latitude, longitude)}${tiles.attribution ? `<figcaption>${e(tiles.attribution)}</figcaption>` : ''}</figure>`
    : '';
  return `<div class="map">${outline}${street}</div><p class="hint">${latitude.toFixed(5)}, ${longitude.toFixed(5)} · borough outlines: NYC Department of City Planning</p>`;
}

function portfolioPanel(portfolio: PagesPortfolio | null, bbl: string): string {
  if (!portfolio) return '<p class="hint">No current HPD registration links this building to other buildings of its owner.</p>';
  const distribution = Object.entries(portfolio.grades)
    .filter(([, count]) => count > 0)
    .map(([grade, count]) => `<li data-grade="${e(grade)}">${grade === 'ungraded' ? 'Not scored' : gradeBadge(grade, grade)} <strong>${integer.format(count)}</strong></li>`)
    .join('');
  const worst = portfolio.worst
    .map(
      (b) =>
        `<li><a href="/buildings/${e(b.bbl)}" class="result${b.bbl === bbl ? ' current' : ''}">${b.grade ? gradeBadge(b.grade, b.grade) : ''}<span class="result-address">${e(b.address)}<small>BBL ${e(b.bbl)} · ${integer.format(b.units)} units${b.bbl === bbl ? ' · this building' : ''}</small></span><span class="result-score">${b.total_score === null ? '—' : integer.format(b.total_score)}</span></a></li>`,
    )
    .join('');
  return `<p>${integer.format(portfolio.buildings)} building${portfolio.buildings === 1 ? '' : 's'}, ${integer.format(portfolio.units)} units, linked through their HPD registrations (portfolio <code>${e(portfolio.id)}</code>).</p>
${portfolio.caution ? `<p class="notice">${e(portfolio.caution)}</p>` : ''}
<h3>Grades</h3><ul class="grade-distribution">${distribution}</ul>
<h3>Its most distressed buildings</h3><ol class="results worst">${worst}</ol>`;
}

function facts(document: PagesBuilding['document']): string {
  return [
    `${document.borough_name}${document.zipcode ? ` ${document.zipcode}` : ''}`,
    `BBL ${document.bbl}`,
    `${integer.format(document.residential_units)} residential units`,
    document.year_built ? `built ${document.year_built}` : '',
    document.building_class ? `class ${document.building_class}` : '',
    document.owner_name ? `owner ${document.owner_name}` : '',
  ]
    .filter(Boolean)
    .map(e)
    .join(' · ');
}

function asOfLine(building: PagesBuilding): string {
  if (!building.asOf) return '<p class="as-of" id="as-of">Not scored yet.</p>';
  const scored = building.scoredAt ? ` · scored <time datetime="${e(building.scoredAt)}">${dateTimeFormat.format(new Date(building.scoredAt))}</time>` : '';
  return `<p class="as-of" id="as-of">Data as of <time datetime="${e(building.asOf)}">${formatDate(building.asOf)}</time>${scored}</p>`;
}

/** The building report, rendered on the server from what the API answers (no script needed). */
export function buildingPage(data: BuildingPageData): string {
  const { building } = data;
  const document = building.document;
  const scored = document.scores !== null ? (document as BuildingDocument) : null;
  const bbl = document.bbl;
  const summary = scored
    ? `<div id="grade" class="grade" aria-describedby="score-caveat">${gradeBadge(scored.scores.grade, scored.scores.label)}<span class="grade-label">${e(scored.scores.label)}</span></div>
<div class="score-text">
<p id="score" class="score"><strong id="total-score">${integer.format(scored.scores.total_score)}</strong> / 100 distress score<small>Health score ${integer.format(scored.scores.health_score)} · model ${e(scored.scores.scorer_id)}</small></p>
<p id="score-caveat" class="caveat">${CAVEAT}</p>
</div>`
    : `<div class="score-text"><p id="score" class="score">This building has not been scored yet.</p><p id="score-caveat" class="caveat">${CAVEAT}</p></div>`;
  const confidence = scored
    ? `<p class="confidence" id="confidence-score"><strong>${e(formatConfidence(scored.confidence.tier, scored.confidence.score))}</strong> <small>(0 to 1)</small></p>
${scored.confidence.reason ? `<p class="confidence-reason">Cannot be graded with confidence: ${e(scored.confidence.reason)}</p>` : ''}
${pairs([
  ...Object.entries(scored.confidence.dimensions).map(([key, value]): [string, string] => [humanize(key), percent.format(value)]),
  ['Primary sources', integer.format(scored.confidence.primary_sources)],
  ['Active source families', integer.format(scored.confidence.active_families)],
])}
${flagList(scored.confidence.flags, 'No confidence flags.', 'confidence-flags')}`
    : '<p class="hint">Not assessed yet.</p>';
  const body = `<article id="report" class="report" data-bbl="${e(bbl)}">
<h1 id="report-title">${e(document.address)}</h1>
<p id="report-facts" class="facts">${facts(document)}</p>
${asOfLine(building)}
<section class="summary" aria-labelledby="score-heading">
<h2 id="score-heading" class="visually-hidden">Score</h2>
${summary}
</section>
<div class="grid">
<section aria-labelledby="components-heading"><h2 id="components-heading">Components</h2>
<p class="hint">0 is no sign of distress, 100 the most distressed.</p><div id="components-chart" class="chart">${scored ? componentsChart(scored.scores.components) : ''}</div></section>
<section aria-labelledby="confidence-heading"><h2 id="confidence-heading">Confidence</h2><div id="confidence">${confidence}</div></section>
<section aria-labelledby="flags-heading"><h2 id="flags-heading">Flags</h2><div id="flags">${scored ? flagList(scored.scores.flags, 'No flags.', 'score-flags') : '<p class="hint">Not scored yet.</p>'}</div></section>
<section aria-labelledby="counts-heading"><h2 id="counts-heading">Record counts</h2><div id="counts">${scored ? pairs(Object.entries(scored.counts).map(([key, value]): [string, string] => [humanize(key), integer.format(value)])) : '<p class="hint">Not counted yet.</p>'}</div></section>
<section aria-labelledby="map-heading"><h2 id="map-heading">Location</h2><div id="map">${mapPanel(document, data.tiles)}</div></section>
</div>
<section aria-labelledby="rules-heading"><h2 id="rules-heading">Published rules</h2><div id="published-rules">${publishedRules(scored?.published_rules as Record<string, RuleCheck> | undefined)}</div></section>
<section aria-labelledby="explanation-heading"><h2 id="explanation-heading">Why this score</h2><div id="explanation">${explanationPanel(building)}</div></section>
<section aria-labelledby="trajectory-heading"><h2 id="trajectory-heading">Score over time</h2><div id="trajectory-chart" class="chart">${trajectoryChart(data.trajectory)}</div></section>
<section aria-labelledby="events-heading"><h2 id="events-heading">Recent records</h2><div id="events">${eventsTable(data.recent, 'No records for this building.')}</div>
<p><a id="history-link" href="/buildings/${e(bbl)}/history">Full record history, with filters →</a></p></section>
<section aria-labelledby="portfolio-heading"><h2 id="portfolio-heading">Also owned by this landlord</h2><div id="portfolio">${portfolioPanel(data.portfolio, bbl)}</div></section>
</article>
<p><a href="/">← Search another building</a></p>`;
  return renderPage({ title: document.address, section: 'lookup', body });
}
