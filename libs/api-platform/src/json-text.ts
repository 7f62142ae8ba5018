import type { Request, Response } from 'express';
import { platformState } from './request-context';
import { platformHeaders } from './response-head';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Ends a response: its status, its own headers (a flat `[name, value, ...]` list) and a JSON text, or
 * no body (`null`, e.g. a 304). Node writes the headers and a text body in one write; Express's `send`
 * turns a body over 1,000 characters into a Buffer (two writes) and checks freshness, which the callers
 * here do themselves (ETag and 304 in json-response.ts, none for errors).
 *
 * An answer given at the front door (the request never went on to the router) is written with one
 * `writeHead` carrying the platform's headers too, and what runs once a response is sent (access log,
 * metrics) runs right after it; a response of the router has had the platform's headers set already.
 */
export function endResponse(req: Request, res: Response, status: number, headers: readonly string[], text: string | null): void {
  const state = platformState(req);
  const body = text !== null && req.method !== 'HEAD' ? text : undefined;
  if (state.handedOn) {
    for (let i = 0; i < headers.length; i += 2) {
      // Vary adds to what the platform set (Origin, for CORS) rather than replacing it
      if (headers[i] === 'Vary') res.vary(headers[i + 1] as string);
      else res.setHeader(headers[i] as string, headers[i + 1] as string);
    }
    if (text !== null) {
      res.setHeader('Content-Type', JSON_TYPE);
      res.setHeader('Content-Length', Buffer.byteLength(text));
    }
    res.statusCode = status;
    res.end(body);
    return;
  }
  const head = platformHeaders(state, headers);
  if (text !== null) head.push('Content-Type', JSON_TYPE, 'Content-Length', String(Buffer.byteLength(text)));
  res.writeHead(status, head);
  res.end(body);
  for (const done of state.onFinish) done(req, res);
}

/** `endResponse` with a JSON text. */
export function endJsonText(req: Request, res: Response, status: number, text: string, headers: readonly string[] = []): void {
  endResponse(req, res, status, headers, text);
}
