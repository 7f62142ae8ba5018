import type { Request, Response } from 'express';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Ends a response: its status, its own headers (a flat `[name, value, ...]` list) and a JSON text, or
 * no body (`null`, e.g. a 304), in one `writeHead` that also carries the platform's headers
 * (platform-http-server.ts). Node writes the headers and a text body in one write; Express's `send`
 * turns a body over 1,000 characters into a Buffer (two writes) and checks freshness, which the callers
 * here do themselves (ETag and 304 in json-response.ts, none for errors).
 */
export function endResponse(req: Request, res: Response, status: number, headers: readonly string[], text: string | null): void {
  const body = text !== null && req.method !== 'HEAD' ? text : undefined;
  const head = text === null ? (headers as string[]) : [...headers, 'Content-Type', JSON_TYPE, 'Content-Length', String(Buffer.byteLength(text))];
  res.writeHead(status, head);
  res.end(body);
}

/** `endResponse` with a JSON text. */
export function endJsonText(req: Request, res: Response, status: number, text: string, headers: readonly string[] = []): void {
  endResponse(req, res, status, headers, text);
}
