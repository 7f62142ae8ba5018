import { request as httpRequest } from 'node:http';

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP/1.1 request to a loopback port, with whatever method, path and headers (node validates the syntax). */
export function send(port: number, req: RawRequest, timeoutMs = 30_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      outcome();
    };
    const r = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: req.path, headers: req.headers, timeout: timeoutMs, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => settle(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') })));
        res.on('error', (error) => settle(() => reject(error)));
      },
    );
    // CONNECT and Upgrade answers arrive as events of their own, not as a response
    r.on('connect', (res: { statusCode?: number }, socket: { destroy(): void }) => {
      socket.destroy();
      settle(() => resolve({ status: res.statusCode ?? 0, headers: {}, body: '' }));
    });
    r.on('upgrade', (res: { statusCode?: number }, socket: { destroy(): void }) => {
      socket.destroy();
      settle(() => resolve({ status: res.statusCode ?? 0, headers: {}, body: '' }));
    });
    r.on('timeout', () => r.destroy(new Error(`timeout after ${timeoutMs} ms: ${req.method} ${req.path.slice(0, 100)}`)));
    r.on('error', (error) => settle(() => reject(error)));
    r.on('close', () => settle(() => reject(new Error('socket hang up: closed without a response'))));
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

export interface ApiErrorBody {
  error?: { code?: string; message?: string; status?: number };
}

export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return null;
  }
}

/** The error code of an error envelope, or null when the body is not one. */
export function errorCode(body: string): string | null {
  const parsed = parseJson(body) as ApiErrorBody | null;
  return parsed && typeof parsed === 'object' && parsed.error?.code ? parsed.error.code : null;
}

/** Sends `count` requests with at most `concurrency` in flight; `make(i)` builds request i. */
export async function sendMany<T>(count: number, concurrency: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) {
      const i = next++;
      results[i] = await work(i);
    }
  });
  await Promise.all(lanes);
  return results;
}
