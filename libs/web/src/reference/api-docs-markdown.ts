import { docUrlFor } from '@bhis/api-platform';
import { ERROR_CODES, ErrorCode } from '@bhis/envelope';
import { isJsonObject, JsonObject, JsonValue } from '../openapi/json';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * /api-docs.md, rendered from the OpenAPI document and ERROR_CODES so that neither can drift from the
 * other. Every error code has the anchor `docUrlFor` points at.
 */
export function renderApiDocs(document: JsonObject, siteUrl: string): string {
  const server = String(asObject(asArray(document['servers'])[0])['url']);
  const info = asObject(document['info']);
  const lines: string[] = [
    `# ${String(info['title'])}`,
    '',
    String(info['description']),
    '',
    `Base URL: \`${siteUrl}${server}\`. OpenAPI 3.1 document: \`${siteUrl}${server}/openapi.json\`. Methodology: \`${siteUrl}/methodology.md\`.`,
    '',
    '## Conventions',
    '',
    '- Authentication: `Authorization: Bearer <API_KEY>` (or `X-API-Key: <API_KEY>`) on every endpoint except the health check and the OpenAPI document.',
    '- Every JSON response is an envelope: `data`, `meta` (`request_id`, `api_version`, `timestamp`, `rate_limit`), `pagination` and `_links`; errors carry `error` (`code`, `message`, `status`, `doc_url`) and `meta`.',
    '- Rate limits: every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` and `X-RateLimit-Cost`; a 429 adds `Retry-After` (seconds).',
    '- Lists (search, events, trajectory, monitors) take `limit` (default 25, at most 100) and `cursor` (the `pagination.next_cursor` of the previous page).',
    '',
    '## Endpoints',
    '',
  ];
  for (const [path, item] of Object.entries(asObject(document['paths']))) {
    for (const method of METHODS) {
      const operation = asObject(item)[method];
      if (isJsonObject(operation)) lines.push(...renderOperation(document, siteUrl + server, method, path, operation));
    }
  }
  const webhooks = Object.entries(asObject(document['webhooks'] ?? {}));
  if (webhooks.length > 0) {
    lines.push('## Webhooks', '', 'What a monitor\'s `webhook_url` receives: a signed `POST` (Standard Webhooks headers) with one of these JSON bodies.', '');
    for (const [name, item] of webhooks) lines.push(...renderWebhook(name, asObject(asObject(item)['post'])));
  }
  lines.push(...flagsSection(document));
  lines.push('## Errors', '', 'Every error answers with the error envelope; `error.doc_url` points at the code below.', '');
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    const anchor = docUrlFor(code).split('#')[1];
    lines.push(`<a id="${anchor}"></a>`, `### \`${code}\` (HTTP ${ERROR_CODES[code].status})`, '', ERROR_CODES[code].summary, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function renderWebhook(name: string, operation: JsonObject): string[] {
  const lines = [`### \`${name}\``, '', `**${String(operation['summary'] ?? '')}**`, ''];
  if (typeof operation['description'] === 'string') lines.push(operation['description'], '');
  lines.push('| Header | Description |', '| --- | --- |');
  for (const p of asArray(operation['parameters'] ?? []).map(asObject)) lines.push(`| \`${String(p['name'])}\` | ${cell(String(p['description'] ?? ''))} |`);
  const media = asObject(asObject(asObject(operation['requestBody'])['content'])['application/json']);
  lines.push('', 'Body:', '', '```json', JSON.stringify(media['example'], null, 2), '```', '', 'Answers:', '');
  for (const [status, response] of Object.entries(asObject(operation['responses']))) lines.push(`- \`${status}\`: ${cell(String(asObject(response)['description'] ?? ''))}`);
  lines.push('');
  return lines;
}

/** What each flag of a building means, as the document describes `scores.flags` and `confidence.flags`. */
function flagsSection(document: JsonObject): string[] {
  const schemas = asObject(asObject(document['components'])['schemas']);
  const described = (schema: string) => String(asObject(asObject(asObject(schemas[schema])['properties'])['flags'])['description'] ?? '');
  return ['## Flags', '', '### `scores.flags`', '', described('ScoresDto'), '', '### `confidence.flags`', '', described('ConfidenceDto'), ''];
}

function renderOperation(document: JsonObject, baseUrl: string, method: string, path: string, operation: JsonObject): string[] {
  const isPublic = Array.isArray(operation['security']) && operation['security'].length === 0;
  const parameters = asArray(operation['parameters'] ?? []).map(asObject);
  const lines = [`### ${method.toUpperCase()} ${path}`, '', `**${String(operation['summary'] ?? '')}**`, ''];
  if (typeof operation['description'] === 'string') lines.push(operation['description'], '');
  lines.push(isPublic ? 'No API key needed.' : 'Needs an API key.', '');

  lines.push('```sh', curlExample(document, baseUrl, method, path, parameters, operation, isPublic), '```', '');
  if (parameters.length > 0) {
    lines.push('| Parameter | In | Required | Description |', '| --- | --- | --- | --- |');
    for (const p of parameters) {
      lines.push(`| \`${String(p['name'])}\` | ${String(p['in'])} | ${p['required'] === true ? 'yes' : 'no'} | ${cell(String(p['description'] ?? ''))} |`);
    }
    lines.push('');
  }
  const body = requestSchemaName(operation);
  if (body) lines.push(`Request body: JSON, schema \`${body}\` (see the OpenAPI document).`, '');
  lines.push('Responses:', '');
  for (const [status, response] of Object.entries(asObject(operation['responses']))) {
    const resolved = resolve(document, asObject(response));
    const codes = Number(status) >= 400 ? errorCodesOf(resolved) : [];
    const text = codes.length > 0 ? codes.map((code) => `[\`${code}\`](${docUrlFor(code)})`).join(', ') : cell(String(resolved['description'] ?? ''));
    lines.push(`- \`${status}\`: ${text}`);
  }
  lines.push('');
  return lines;
}

function curlExample(document: JsonObject, baseUrl: string, method: string, path: string, parameters: JsonObject[], operation: JsonObject, isPublic: boolean): string {
  let url = path;
  const query: string[] = [];
  for (const p of parameters) {
    const example = exampleOf(p);
    if (p['in'] === 'path') url = url.replace(`{${String(p['name'])}}`, example ?? '1000010001');
    else if (p['in'] === 'query' && (p['required'] === true || (query.length === 0 && example !== undefined && path.endsWith('/search')))) {
      query.push(`${String(p['name'])}=${encodeURIComponent(example ?? '')}`);
    }
  }
  const parts = [`curl -s${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} '${baseUrl}${url}${query.length ? `?${query.join('&')}` : ''}'`];
  if (!isPublic) parts.push(`-H "Authorization: Bearer $BHIS_API_KEY"`);
  const body = requestBodyExample(document, operation);
  if (body !== undefined) parts.push(`-H 'Content-Type: application/json'`, `-d '${JSON.stringify(body)}'`);
  return parts.join(' \\\n  ');
}

function exampleOf(parameter: JsonObject): string | undefined {
  const schema = isJsonObject(parameter['schema']) ? parameter['schema'] : {};
  const candidates = [parameter['example'], Array.isArray(schema['examples']) ? schema['examples'][0] : undefined, Array.isArray(schema['enum']) ? schema['enum'][0] : undefined];
  const found = candidates.find((value) => value !== undefined && value !== null);
  return found === undefined ? undefined : String(found);
}

function requestSchemaName(operation: JsonObject): string | undefined {
  const ref = requestSchemaRef(operation);
  return ref?.split('/').pop();
}

function requestSchemaRef(operation: JsonObject): string | undefined {
  if (!isJsonObject(operation['requestBody'])) return undefined;
  const media = asObject(asObject(operation['requestBody']['content'])['application/json'] ?? {});
  const schema = isJsonObject(media['schema']) ? media['schema'] : {};
  return typeof schema['$ref'] === 'string' ? schema['$ref'] : undefined;
}

/** An example body from the examples of the request schema's required properties. */
function requestBodyExample(document: JsonObject, operation: JsonObject): JsonObject | undefined {
  const ref = requestSchemaRef(operation);
  if (!ref) return undefined;
  const schema = resolve(document, { $ref: ref });
  const required = asArray(schema['required'] ?? []).map(String);
  const properties = asObject(schema['properties'] ?? {});
  const body: JsonObject = {};
  for (const name of required) {
    const property = asObject(properties[name] ?? {});
    const examples = property['examples'];
    if (Array.isArray(examples) && examples.length > 0) body[name] = examples[0];
    else if (property['type'] === 'array') body[name] = ['1000010001'];
  }
  return body;
}

function errorCodesOf(response: JsonObject): ErrorCode[] {
  const media = asObject(asObject(response['content'] ?? {})['application/json'] ?? {});
  return Object.keys(asObject(media['examples'] ?? {})).filter((code): code is ErrorCode => code in ERROR_CODES);
}

function resolve(document: JsonObject, value: JsonObject): JsonObject {
  const ref = value['$ref'];
  if (typeof ref !== 'string') return value;
  let target: JsonValue = document;
  for (const segment of ref.replace(/^#\//, '').split('/')) target = asObject(target)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  return asObject(target);
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');
}

function asObject(value: JsonValue | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}

function asArray(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}
