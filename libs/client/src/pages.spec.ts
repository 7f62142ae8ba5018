import { BhisApiError, items, pages, type FetchResult, type Pagination } from './pages';

interface Page {
  data: { events: number[] };
  pagination: Pagination;
}

const ok = (events: number[], next: string | null): FetchResult<Page> => ({
  data: { data: { events }, pagination: { limit: 2, has_more: next !== null, next_cursor: next } },
  response: new Response(null, { status: 200 }),
});

describe('pages and items', () => {
  it('follows next_cursor until the last page, passing each cursor back', async () => {
    const cursors: (string | undefined)[] = [];
    const book: Record<string, FetchResult<Page>> = { first: ok([1, 2], 'c1'), c1: ok([3, 4], 'c2'), c2: ok([5], null) };
    const fetchPage = async (cursor: string | undefined) => (cursors.push(cursor), book[cursor ?? 'first']!);
    const seen: number[] = [];
    for await (const event of items(fetchPage, (page) => page.data.events)) seen.push(event);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(cursors).toEqual([undefined, 'c1', 'c2']);
  });

  it('throws the API error of a page that fails, with its code and request id', async () => {
    const failing = async (cursor: string | undefined): Promise<FetchResult<Page>> =>
      cursor === undefined
        ? ok([1], 'c1')
        : { error: { error: { code: 'invalid_request', message: 'Invalid cursor' }, meta: { request_id: 'req_1' } }, response: new Response(null, { status: 400 }) };
    const seen: Page[] = [];
    const run = async () => {
      for await (const page of pages(failing)) seen.push(page);
    };
    await expect(run()).rejects.toThrow(BhisApiError);
    await expect(run()).rejects.toMatchObject({ status: 400, code: 'invalid_request', requestId: 'req_1', message: 'Invalid cursor' });
    expect(seen).toHaveLength(2);
  });
});
