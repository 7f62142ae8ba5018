import createClient, { type Client } from 'openapi-fetch';
import { retryingFetch, type RetryOptions } from './retry';
import type { components, operations, paths } from './schema';

export type { components, operations, paths };
export { BhisApiError, items, pages, type FetchResult, type Pagination } from './pages';
export { retryAfterMs, retryingFetch, type RetryOptions } from './retry';
export { verifyWebhook, WebhookVerificationError, type WebhookHeaders } from './webhooks';

/** A client of the Building Health Intelligence Service, typed from its OpenAPI document. */
export type BhisClient = Client<paths>;

type Schemas = components['schemas'];
export type Building = Schemas['BuildingDto'];
export type BuildingSummary = Schemas['BuildingSummaryDto'];
export type BuildingEvent = Schemas['EventDto'];
export type TrajectoryPoint = Schemas['TrajectoryPointDto'];
export type PortfolioAnalysis = Schemas['PortfolioAnalysisDto'];
export type DataSourceStatus = Schemas['SourceDto'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];

/**
 * The API's base path, written out so that the client imports nothing of the service (the index of
 * @bhis/envelope loads node:crypto); api-base-path.spec.ts holds it equal to `API_BASE_PATH` there.
 */
export const API_BASE_PATH = '/api/v1';

/** `https://host` and `https://host/api/v1/` both name the API at `https://host/api/v1`. */
export function apiBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith(API_BASE_PATH) ? trimmed : `${trimmed}${API_BASE_PATH}`;
}

export interface BhisClientOptions {
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Waiting out 429 answers by their `Retry-After` (default: up to 3 retries of at most 60 s each; `false`: never). */
  retry?: RetryOptions | false;
}

/**
 * Creates a typed client: `client.GET('/buildings/{bbl}', { params: { path: { bbl } } })`.
 * `baseUrl` is the API's base URL (the site root works too); the key is sent as a Bearer token. A
 * 429 is sent again once its `Retry-After` has passed (see `retry`).
 */
export function createBhisClient(baseUrl: string, apiKey: string, options: BhisClientOptions = {}): BhisClient {
  const base = options.fetch ?? globalThis.fetch;
  return createClient<paths>({
    baseUrl: apiBaseUrl(baseUrl),
    headers: { Authorization: `Bearer ${apiKey}` },
    fetch: options.retry === false ? base : retryingFetch(base, options.retry),
  });
}
