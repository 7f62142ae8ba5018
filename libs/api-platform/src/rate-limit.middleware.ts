import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { RequestCharges } from './request-charges';
import { routeCostOf } from './route-costs';

/**
 * Charges every request (any path, before the router and before a byte of its body is read) its
 * route's minimum cost (route-costs.ts: one strict table by method and path; anything else 1), to its
 * key or, without a valid key, to its client address; out of units: 429. A charge its key's lease
 * covers is decided without waiting (ADR 0012). What the body adds is charged once it is read
 * (json-body.guard.ts).
 */
@Injectable()
export class RateLimitStep {
  constructor(private readonly charges: RequestCharges) {}

  /** Undefined when charged at once (a refusal is thrown); else the promise of the charge. */
  run(req: Request): Promise<void> | undefined {
    const units = routeCostOf(req.method, req.path)?.minimum ?? 1;
    const charged = this.charges.chargeFromMemory(req, units);
    if (charged === 'charged') return undefined;
    if (charged !== 'undecided') throw charged;
    return this.charges.charge(req, units);
  }
}
