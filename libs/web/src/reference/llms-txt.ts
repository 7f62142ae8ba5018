import { apiPath } from '@bhis/envelope';
/** /llms.txt in the format of the llms.txt proposal: H1, summary blockquote, sections of links. */
export function renderLlmsTxt(siteUrl: string): string {
  const link = (name: string, path: string, note: string) => `- [${name}](${siteUrl}${path}): ${note}`;
  return [
    '# Building Health Intelligence Service',
    '',
    '> A read-only JSON API of distress scores (0-100, higher is more distressed; grades A to F) for New York City',
    '> habitational buildings, keyed by BBL (a 10-digit borough-block-lot number), built from public records with',
    '> seven components, a confidence assessment, flags and the events behind them.',
    '',
    'The score is a ranking signal, not a verdict: not a legal finding, a safety certification or a unit-level',
    'inspection. Complaints are reports, not confirmed violations. Keep source dates, statuses, confidence and',
    'caveats with any result you present. Every endpoint except the health check needs an API key, sent as',
    '`Authorization: Bearer <API_KEY>` or `X-API-Key`.',
    '',
    '## Docs',
    '',
    link('API reference (Markdown)', '/api-docs.md', 'every endpoint with a curl example, its parameters and responses, and every error code'),
    link('Methodology (Markdown)', '/methodology.md', 'how the score, grade, components, confidence and flags are computed, and their limits'),
    link('OpenAPI document', apiPath('/openapi.json'), 'OpenAPI 3.1, the machine-readable contract of the API'),
    '',
    '## API',
    '',
    link('Building lookup', apiPath('/buildings/{bbl}'), 'one building: facts, scores, components, counts and confidence'),
    link('Building search', apiPath('/buildings/search'), 'by address, borough, zipcode, grade, owner, building class or score'),
    link('Building events', apiPath('/buildings/{bbl}/events'), 'the public-record events behind a score, newest first, with links to the publisher\'s record'),
    link('Score trajectory', apiPath('/buildings/{bbl}/trajectory'), 'the score history of a building, oldest first'),
    link('Portfolio analysis', apiPath('/portfolio/analyze'), 'grade distribution and risk metrics of up to 10,000 buildings'),
    link('Sources', apiPath('/sources'), 'the public data sources and how fresh they are'),
    '',
    '## Optional',
    '',
    link('Building report page', '/buildings/{bbl}', 'the human-readable report of one building'),
    link('API reference page', '/docs', 'the OpenAPI document rendered for people'),
    link('Methodology page', '/methodology', 'the methodology rendered for people'),
    '',
  ].join('\n');
}
