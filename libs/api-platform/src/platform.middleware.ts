import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiKeyStep } from './api-key.middleware';
import { CompressionStep } from './compression.middleware';
import { CorsStep } from './cors';
import { RateLimitStep } from './rate-limit.middleware';
import { RequestContextStep } from './request-context.middleware';

/**
 * The request pipeline ahead of the router, as one Nest middleware (docs/adr/0010-request-pipeline-order.md):
 * request context, CORS, compression, the key check, the minimum charge, as plain calls in that
 * order. One middleware is one Express layer and one Nest proxy per request, where a middleware per
 * step cost each request five of each. A step that must wait (a key looked up, a charge Redis decides)
 * returns a promise; a refusal is thrown and reaches the exception filter.
 */
@Injectable()
export class PlatformMiddleware implements NestMiddleware<Request, Response> {
  constructor(
    private readonly context: RequestContextStep,
    private readonly cors: CorsStep,
    private readonly compression: CompressionStep,
    private readonly key: ApiKeyStep,
    private readonly rateLimit: RateLimitStep,
  ) {}

  use(req: Request, res: Response, next: NextFunction): Promise<void> | void {
    this.context.run(req, res);
    if (!this.cors.run(req, res)) return;
    this.compression.run(req, res);
    const keyed = this.key.run(req);
    if (keyed !== undefined) return keyed.then(() => this.charge(req, next));
    return this.charge(req, next);
  }

  private charge(req: Request, next: NextFunction): Promise<void> | void {
    const charged = this.rateLimit.run(req);
    if (charged === undefined) return next();
    return charged.then(next);
  }
}
