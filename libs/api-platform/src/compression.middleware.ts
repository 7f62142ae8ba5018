import { Injectable, NestMiddleware } from '@nestjs/common';
import compression from 'compression';
import type { NextFunction, Request, Response } from 'express';

/**
 * Compresses responses of clients that accept a content encoding. Without an `Accept-Encoding`
 * header nothing would be compressed, so the response is not wrapped at all (wrapping every response
 * was 8-9% of a cached lookup, docs/adr/0010-request-pipeline-order.md).
 */
@Injectable()
export class CompressionMiddleware implements NestMiddleware<Request, Response> {
  private readonly compress = compression({ threshold: 1024 });

  use(req: Request, res: Response, next: NextFunction): void {
    if (req.headers['accept-encoding']) this.compress(req, res, next);
    else next();
  }
}
