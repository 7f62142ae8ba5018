import { apiPath } from '@bhis/envelope';
import { isJsonObject, type JsonObject } from '../openapi/json';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** One line per operation of the OpenAPI document (its summary), in the document's order. */
function operationLinks(document: JsonObject, siteUrl: string, filter: (path: string) => boolean): string[] {
  const lines: string[] = [];
  for (const [path, item] of Object.entries(isJsonObject(document['paths']) ? document['paths'] : {})) {
    if (!filter(path) || !isJsonObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isJsonObject(operation)) continue;
      const summary = String(operation['summary'] ?? '').replace(/\.$/, '');
      lines.push(`- [${method.toUpperCase()} ${path}](${siteUrl}${apiPath(path === '/' ? '' : path)}): ${summary}`);
    }
  }
  return lines;
}

/**
 * /llms.txt in the format of the llms.txt proposal: H1, summary blockquote, sections of links. The API
 * sections list every operation of the OpenAPI document, so a new endpoint is listed by being documented.
 */
export function renderLlmsTxt(document: JsonObject, siteUrl: string): string {
  const link = (name: string, path: string, note: string) => `- [${name}](${siteUrl}${path}): ${note}`;
  const isAdmin = (path: string) => path.startsWith('/admin');
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
    ...operationLinks(document, siteUrl, (path) => !isAdmin(path)),
    '',
    '## Webhooks',
    '',
    ...Object.keys(isJsonObject(document['webhooks']) ? document['webhooks'] : {}).map(
      (name) => `- [${name}](${siteUrl}/api-docs.md#webhooks): a signed POST to a monitor's webhook_url (its body and signature headers in the API reference)`,
    ),
    '',
    '## Optional',
    '',
    link('Building report page', '/buildings/{bbl}', 'the human-readable report of one building'),
    link('API reference page', '/docs', 'the OpenAPI document rendered for people'),
    link('Methodology page', '/methodology', 'the methodology rendered for people'),
    ...operationLinks(document, siteUrl, isAdmin),
    '',
  ].join('\n');
}
