import type { Request, Response } from 'express';

/**
 * Ends a response with a JSON text. Node writes the headers and a text body in one write; Express's
 * `send` turns a body over 1,000 characters into a Buffer (two writes) and checks freshness, which the
 * callers here do themselves (ETag and 304 in json-response.ts, none for errors).
 */
export function endJsonText(req: Request, res: Response, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (req.method === 'HEAD') res.end();
  else res.end(text);
}
