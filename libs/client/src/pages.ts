/** The `pagination` object of every cursor-paginated response. */
export interface Pagination {
  limit: number;
  has_more: boolean;
  next_cursor: string | null;
}

/** What an openapi-fetch call resolves to. */
export interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** An answer that was not a success, with the API's error envelope when it sent one. */
export class BhisApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly requestId: string | null;

  constructor(response: Response, body: unknown) {
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    super(error?.message ?? `HTTP ${response.status}`);
    this.name = 'BhisApiError';
    this.status = response.status;
    this.code = error?.code ?? null;
    this.requestId = (body as { meta?: { request_id?: string } } | undefined)?.meta?.request_id ?? response.headers.get('x-request-id');
  }
}

/**
 * Every page of a cursor-paginated endpoint, in order: `fetchPage` asks for the page after `cursor`
 * (undefined for the first) with the same filters. An error answer throws BhisApiError.
 *
 *   for await (const page of pages((cursor) => client.GET('/buildings/{bbl}/events', { params: { path: { bbl }, query: { cursor } } })))
 */
export async function* pages<T extends { pagination: Pagination }>(
  fetchPage: (cursor: string | undefined) => Promise<FetchResult<T>>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const { data, error, response } = await fetchPage(cursor);
    if (data === undefined) throw new BhisApiError(response, error);
    yield data;
    const next = data.pagination.next_cursor;
    if (!data.pagination.has_more || next === null) return;
    cursor = next;
  }
}

/** The items of every page, one by one: `items(fetchPage, (page) => page.data.events)`. */
export async function* items<T extends { pagination: Pagination }, I>(
  fetchPage: (cursor: string | undefined) => Promise<FetchResult<T>>,
  itemsOf: (page: T) => readonly I[],
): AsyncGenerator<I, void, undefined> {
  for await (const page of pages(fetchPage)) yield* itemsOf(page);
}
