import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { API_BASE_PATH, ERROR_CODES, ErrorCode, isErrorCode } from '@bhis/envelope';
import {
  ANY_ERRORS,
  AUTHENTICATED_ERRORS,
  BODY_ERRORS,
  IDEMPOTENCY_ERRORS,
  IDEMPOTENCY_KEY_PARAMETER,
  ERROR_SCHEMAS,
  errorExamples,
  errorResponse,
  GLOBAL_SECURITY,
  RESPONSE_HEADERS,
  responseHeaders,
  SECURITY_SCHEMES,
} from './api-conventions';
import { isJsonObject, JsonObject, JsonValue, sortKeys } from './json';
import { toJsonSchema2020 } from './openapi-3-1';
import { PLATFORM_PATHS } from './platform-operations';
import { WEBHOOK_SCHEMAS, WEBHOOKS } from './webhook-operations';
import type { ResponseExamples } from './response-examples';
import { RESPONSE_EXAMPLES } from '../generated/response-examples';


const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

const TAGS: { name: string; description: string }[] = [
  { name: 'Buildings', description: 'Look up, batch and search buildings, their scores and score history.' },
  { name: 'Events', description: 'The public-record events behind a building\'s score, with links to the publisher\'s record.' },
  { name: 'Portfolios', description: 'Landlord portfolios: the buildings of one owner, found through HPD registrations, with their scores.' },
  { name: 'Portfolio', description: 'Analyze a list of buildings at once.' },
  { name: 'Portfolio monitors', description: 'Webhooks when buildings of a list change grade.' },
  { name: 'Export', description: 'CSV exports.' },
  { name: 'Sources', description: 'Freshness of the public data sources.' },
  { name: 'Admin', description: 'Operator endpoints (scope `admin`).' },
  { name: 'Platform', description: 'Index, health check and this document.' },
];

const INFO: JsonObject = {
  title: 'Building Health Intelligence Service API',
  version: '1.0.0',
  summary: 'Read-only distress scores, event histories and property facts for New York City buildings, keyed by BBL.',
  description: [
    'Distress scores (0-100, higher is more distressed) and grades (A to F) for habitational buildings in New York City,',
    'built from public records, with their seven components, confidence, flags and the events behind them.',
    '',
    'The score is **a ranking signal, not a verdict**: not a legal finding, a safety certification or a unit-level inspection.',
    'Complaints are reports, not confirmed violations. Keep source dates, statuses, confidence and caveats with any result you present.',
    '',
    'Authenticate with `Authorization: Bearer <API_KEY>` or `X-API-Key`. Every response carries `X-RateLimit-*` headers;',
    'errors use one envelope whose `doc_url` is the absolute URL of `/api-docs.md#error-<code>`. Methodology: `/methodology.md`.',
  ].join('\n'),
  contact: { name: 'Building Health Intelligence Service' },
  license: { name: 'Proprietary' },
};

/** Error responses shared by the operations (one per combination of codes) and every code they use. */
interface SharedErrors {
  responses: JsonObject;
  codes: Set<ErrorCode>;
  /** The captured answers, shown as each success response's example. */
  examples: ResponseExamples;
}

/** Builds the OpenAPI 3.1 document of a Nest application from its decorators (the app need not listen). */
export function buildOpenApiDocument(app: INestApplication): JsonObject {
  const config = new DocumentBuilder().setOpenAPIVersion('3.1.0').setTitle(String(INFO['title'])).build();
  const scanned = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey.replace(/Controller$/, '').toLowerCase()}_${methodKey}`,
  });
  return finalizeOpenApiDocument(JSON.parse(JSON.stringify(scanned)) as JsonObject);
}

/** Turns the scanned document into the published one: 3.1 schemas, shared conventions, stable order. */
export function finalizeOpenApiDocument(scanned: JsonObject, examples: ResponseExamples = RESPONSE_EXAMPLES): JsonObject {
  const shared: SharedErrors = { responses: {}, codes: new Set(), examples };
  const paths: JsonObject = {};
  const scannedPaths: [string, JsonValue][] = [
    ...Object.entries(PLATFORM_PATHS),
    ...Object.entries(asObject(scanned['paths'])).filter(([path]) => path.startsWith(API_BASE_PATH)).map(([path, item]): [string, JsonValue] => [path.slice(API_BASE_PATH.length) || '/', item]),
  ];
  for (const [path, item] of scannedPaths) paths[path] = finalizePathItem(asObject(item), shared);
  const components = asObject(scanned['components'] ?? {});
  const schemas = mapValues(asObject(components['schemas'] ?? {}), toJsonSchema2020);
  const document: JsonObject = {
    openapi: '3.1.0',
    info: INFO,
    servers: [{ url: API_BASE_PATH, description: 'This deployment (production): the host that serves this document.', 'x-internal': false }],
    security: GLOBAL_SECURITY,
    tags: TAGS.map((tag) => ({ ...tag })),
    paths,
    webhooks: WEBHOOKS,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      headers: RESPONSE_HEADERS,
      examples: errorExamples([...shared.codes]),
      responses: shared.responses,
      schemas: { ...schemas, ...ERROR_SCHEMAS, ...WEBHOOK_SCHEMAS },
    },
  };
  return sortKeys(pruneUnusedSchemas(document), keyOrder) as JsonObject;
}

function finalizePathItem(item: JsonObject, shared: SharedErrors): JsonObject {
  const out: JsonObject = {};
  for (const [method, operation] of Object.entries(item)) {
    out[method] = HTTP_METHODS.includes(method) ? finalizeOperation(asObject(operation), shared, method === 'post' || method === 'patch') : operation;
  }
  return out;
}

function finalizeOperation(operation: JsonObject, shared: SharedErrors, writes: boolean): JsonObject {
  const { security, ...rest } = operation;
  const isPublic = Array.isArray(security) && security.length === 0;
  const idempotent = writes && !isPublic;
  const parameters = [...(Array.isArray(rest['parameters']) ? rest['parameters'] : []), ...(idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : [])];
  const out: JsonObject = {
    ...rest,
    ...(typeof rest['description'] !== 'string' && typeof rest['summary'] === 'string' ? { description: `${rest['summary']}.` } : {}),
    ...(isPublic ? { security: [] } : {}), // anything else is the global requirement: both schemes work everywhere
    tags: (Array.isArray(rest['tags']) ? rest['tags'] : []).map((tag) => tagName(String(tag))),
    parameters: parameters.map((p) => withSchema(asObject(p))),
  };
  if (isJsonObject(rest['requestBody'])) out['requestBody'] = withContentSchemas(rest['requestBody']);
  out['responses'] = finalizeResponses(asObject(rest['responses']), {
    operationId: String(rest['operationId'] ?? ''),
    isPublic,
    hasBody: isJsonObject(rest['requestBody']),
    hasParameters: parameters.length > 0,
    idempotent,
  }, shared);
  return out;
}

/**
 * Success responses stay with their operation; error responses become shared components, one per
 * combination of codes, so every operation lists exactly the codes it can answer with.
 */
function finalizeResponses(
  responses: JsonObject,
  op: { operationId: string; isPublic: boolean; hasBody: boolean; hasParameters: boolean; idempotent: boolean },
  shared: SharedErrors,
): JsonObject {
  const codesByStatus = new Map<string, ErrorCode[]>();
  const add = (code: ErrorCode) => {
    const status = String(ERROR_CODES[code].status);
    const codes = codesByStatus.get(status) ?? [];
    if (!codes.includes(code)) codes.push(code);
    codesByStatus.set(status, codes);
  };
  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) >= 400) documentedCodes(asObject(response), status).forEach(add);
  }
  (op.isPublic ? ANY_ERRORS : AUTHENTICATED_ERRORS).forEach(add);
  if (op.hasBody) BODY_ERRORS.forEach(add);
  if (op.hasParameters) add('invalid_request'); // unknown and badly typed parameters are refused
  if (op.idempotent) IDEMPOTENCY_ERRORS.forEach(add);

  const out: JsonObject = {};
  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) >= 400) continue;
    const answer = withExample(withHeaders(withContentSchemas(asObject(response)), status), shared.examples[op.operationId]?.[status]);
    out[status] = op.idempotent ? { ...answer, headers: { ...asObject(answer['headers']), 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } } } : answer;
  }
  for (const [status, codes] of codesByStatus) {
    const name = `Error_${codes.join('_or_')}`;
    shared.responses[name] ??= withHeaders(errorResponse(codes), status);
    codes.forEach((code) => shared.codes.add(code));
    out[status] = { $ref: `#/components/responses/${name}` };
  }
  return out;
}

/** The error codes a scanned response names in its description (`code`: summary). */
function documentedCodes(response: JsonObject, status: string): ErrorCode[] {
  const description = typeof response['description'] === 'string' ? response['description'] : '';
  return [...description.matchAll(/`([a-z_]+)`/g)]
    .map((match) => match[1])
    .filter((code): code is ErrorCode => isErrorCode(code) && String(ERROR_CODES[code].status) === status);
}

const DEFAULT_DESCRIPTIONS: Record<string, string> = { '200': 'OK.', '201': 'Created.', '202': 'Accepted.', '304': 'Not modified.' };

function withHeaders(response: JsonObject, status: string): JsonObject {
  const description = typeof response['description'] === 'string' && response['description'] !== '' ? response['description'] : (DEFAULT_DESCRIPTIONS[status] ?? 'Response.');
  return { ...response, description, headers: { ...asObject(response['headers'] ?? {}), ...responseHeaders(status) } };
}

/** The captured answer as the example of a response's (first) media type. */
function withExample(response: JsonObject, example: JsonValue | undefined): JsonObject {
  if (example === undefined || !isJsonObject(response['content'])) return response;
  const [media, body] = Object.entries(response['content'])[0] ?? [];
  if (!media || !isJsonObject(body) || 'example' in body || 'examples' in body) return response;
  return { ...response, content: { ...response['content'], [media]: { ...body, example } } };
}

function withSchema(holder: JsonObject): JsonObject {
  return 'schema' in holder ? { ...holder, schema: toJsonSchema2020(holder['schema']) } : holder;
}

function withContentSchemas(holder: JsonObject): JsonObject {
  if (!isJsonObject(holder['content'])) return holder;
  return { ...holder, content: mapValues(holder['content'], (media) => withSchema(asObject(media))) };
}

function tagName(tag: string): string {
  return tag.charAt(0).toUpperCase() + tag.slice(1);
}

/** Drops component schemas nothing refers to (models registered by several libraries under one name). */
function pruneUnusedSchemas(document: JsonObject): JsonObject {
  const components = asObject(document['components']);
  let schemas = asObject(components['schemas']);
  for (;;) {
    const used = new Set<string>();
    collectRefs({ ...document, components: { ...components, schemas } }, used);
    const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
    if (Object.keys(kept).length === Object.keys(schemas).length) break;
    schemas = kept;
  }
  return { ...document, components: { ...components, schemas } };
}

function collectRefs(value: JsonValue, used: Set<string>): void {
  if (Array.isArray(value)) return value.forEach((item) => collectRefs(item, used));
  if (!isJsonObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) used.add(child.slice('#/components/schemas/'.length));
    else collectRefs(child, used);
  }
}

const TOP_LEVEL_ORDER = ['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'webhooks', 'components'];

/** Key order of the written document: readable where order carries meaning, sorted everywhere else. */
function keyOrder(path: string[], keys: string[]): string[] {
  if (path.length === 0) return TOP_LEVEL_ORDER.filter((key) => keys.includes(key));
  const parent = path[path.length - 1];
  if (parent === 'properties' || path.some((segment) => segment === 'examples' || segment === 'example' || segment === 'info')) return keys;
  if (path.length === 2 && path[0] === 'webhooks') return keys;
  if (path.length === 2 && path[0] === 'paths') return [...keys].sort((a, b) => HTTP_METHODS.indexOf(a) - HTTP_METHODS.indexOf(b));
  return [...keys].sort();
}

function asObject(value: JsonValue | undefined): JsonObject {
  if (!isJsonObject(value)) throw new Error(`Expected an object in the OpenAPI document, got ${JSON.stringify(value)?.slice(0, 80)}`);
  return value;
}

function mapValues(object: JsonObject, fn: (value: JsonValue) => JsonValue): JsonObject {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, fn(value)]));
}
