import { REQUEST_ID_PATTERN } from '@bhis/envelope';

export interface CallResult {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

export async function call(url: string, init: RequestInit = {}): Promise<CallResult> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { raw: text };
  }
  return { status: res.status, headers: res.headers, body, text };
}

export function auth(key: string, headers: Record<string, string> = {}): RequestInit {
  return { headers: { Authorization: `Bearer ${key}`, ...headers } };
}

export function postJson(key: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

/** The error envelope of the API: code, status, a message, meta, no data, no internals. */
export function expectError(res: CallResult, status: number, code: string, message?: RegExp): void {
  if (res.status !== status) throw new Error(`expected ${status} ${code}, got ${res.status}: ${res.text.slice(0, 300)}`);
  const error = res.body.error as { code: string; message: string; status: number };
  expect(error).toEqual(expect.objectContaining({ code, status }));
  expect(error.message.length).toBeGreaterThan(0);
  if (message) expect(error.message).toMatch(message);
  expect(res.body.data).toBeUndefined();
  expect((res.body.meta as { request_id: string }).request_id).toMatch(REQUEST_ID_PATTERN);
  expect(res.text).not.toMatch(/at \S+ \(|SELECT |FROM |bpchar/);
}

export function data<T>(res: CallResult): T {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${res.text.slice(0, 300)}`);
  return res.body.data as T;
}

export function pagination(res: CallResult): { limit: number; has_more: boolean; next_cursor: string | null } {
  return res.body.pagination as { limit: number; has_more: boolean; next_cursor: string | null };
}
