import { isIPv4, isIPv6 } from 'node:net';
import type { Request } from 'express';
import { ApiError } from '@bhis/envelope';
import type { RateLimitDecision, RateLimiter } from './rate-limiter';
import { platformState } from './request-context';
import { costOfBodyBytes } from './route-costs';

const REMEMBERED_REFUSALS = 1000;

/** What the rate limiter decided from memory: charged, refused (the 429 to answer), or undecided (the asynchronous `charge` decides). */
export type MemoryCharge = 'charged' | 'undecided' | ApiError;

export interface RateLimits {
  live: number;
  demo: number;
  anonymous: number;
  /** Requests with an invalid key per client address and minute, before further ones are refused unchecked. */
  authFailures: number;
}

/**
 * Charges rate-limit units to the key of a request (or, without a valid key, to the client address).
 * A request is charged in steps: its route's minimum before the body is read, the rest once the body
 * (or, for a filtered export, the row count) is known. A refused step answers 429.
 */
export class RequestCharges {
  /** The 429s of recent refusals by limit, cost and wait: a client that keeps sending past its limit costs no new error each time. */
  private readonly refusals = new Map<string, ApiError>();

  constructor(
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimits,
  ) {}

  private target(req: Request): { identity: string; limit: number } {
    const { auth } = platformState(req);
    return auth.state === 'valid'
      ? { identity: `key:${auth.key.id}`, limit: auth.key.rateLimitPerMin ?? this.limits[auth.key.kind] }
      : { identity: `ip:${clientAddress(req)}`, limit: this.limits.anonymous };
  }

  /** Adds `units` to the request's cost; throws rate_limit_exceeded when they are not available. */
  async charge(req: Request, units: number): Promise<void> {
    if (units <= 0) return;
    const { identity, limit } = this.target(req);
    const refusal = this.settle(req, units, limit, await this.limiter.consume(identity, limit, units));
    if (refusal) throw refusal;
  }

  /**
   * `charge` when the rate limiter can decide from memory (the key's lease). The refusal is returned,
   * not thrown, so that the caller decides without waiting.
   */
  chargeFromMemory(req: Request, units: number): MemoryCharge {
    if (units <= 0) return 'charged';
    const { identity, limit } = this.target(req);
    const decision = this.limiter.consumeFromMemory(identity, limit, units);
    if (!decision) return 'undecided';
    return this.settle(req, units, limit, decision) ?? 'charged';
  }

  /**
   * The charge of a body by its bytes as they are inflated (body-reader.ts `charge`): each started
   * BODY_BYTES_PER_UNIT that the units charged so far do not cover is charged before reading goes
   * on; a refusal (429) ends the read.
   */
  chargeAsInflated(req: Request): (totalBytes: number) => Promise<void> | void {
    return (totalBytes) => {
      const due = costOfBodyBytes(totalBytes) - platformState(req).cost;
      if (due <= 0) return;
      const charged = this.chargeFromMemory(req, due);
      if (charged === 'charged') return;
      return charged === 'undecided' ? this.charge(req, due) : Promise.reject(charged);
    };
  }

  /** Records the charge on the request; the refusal when the units are not available. */
  private settle(req: Request, units: number, limit: number, decision: RateLimitDecision): ApiError | null {
    const state = platformState(req);
    state.rateLimit = decision.status;
    state.cost += units;
    // the cost and status are written with the answer's head (platform-http-server.ts)
    if (decision.allowed) return null;
    state.cost -= units;
    return this.refusal(limit, state.cost + units, decision.retryAfterSeconds);
  }

  private refusal(limit: number, cost: number, retryAfterSeconds: number): ApiError {
    const key = `${limit}:${cost}:${retryAfterSeconds}`;
    let error = this.refusals.get(key);
    if (!error) {
      if (this.refusals.size >= REMEMBERED_REFUSALS) this.refusals.clear();
      error = new ApiError('rate_limit_exceeded', `Rate limit of ${limit} units per minute exceeded (this request costs ${cost}). Retry in ${retryAfterSeconds} s.`, {
        headers: { 'Retry-After': String(retryAfterSeconds), 'X-RateLimit-Cost': String(cost) },
      });
      this.refusals.set(key, error);
    }
    return error;
  }

  /** Whether the client address has used up its invalid-key attempts (checked before any key lookup). */
  async authFailuresExhausted(req: Request): Promise<{ retryAfterSeconds: number } | null> {
    // when Redis is unreachable the check is skipped rather than refusing every key
    const left = await this.limiter.remaining(`authfail:${clientAddress(req)}`, this.limits.authFailures).catch(() => null);
    return !left || left.remaining > 0 ? null : { retryAfterSeconds: left.retryAfterSeconds };
  }

  async recordAuthFailure(req: Request): Promise<void> {
    await this.limiter.consume(`authfail:${clientAddress(req)}`, this.limits.authFailures, 1);
  }
}

/**
 * The client's address as its per-address budgets count it: Express's `req.ip` when a proxy is trusted
 * (X-Forwarded-For through trusted hops), else the socket's own address, which is what `req.ip`
 * answers then, without parsing the header; IPv6 grouped by /64 (`addressGroup`).
 */
function clientAddress(req: Request): string {
  const address = req.app.get('trust proxy') === false ? req.socket.remoteAddress : req.ip;
  return address ? addressGroup(address) : 'unknown';
}

/**
 * The group of addresses one client controls: an IPv4 address itself (IPv4-mapped IPv6 included), an
 * IPv6 address's /64, the smallest subnet a site is given and the size of one LAN (RFC 4291 section
 * 2.5.4: interface identifiers are 64 bits; RFC 6177), so rotating addresses within it shares one budget.
 */
export function addressGroup(address: string): string {
  const bare = address.split('%')[0] as string;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped && isIPv4(mapped[1] as string)) return mapped[1] as string;
  if (!isIPv6(bare)) return address;
  const [head = '', tail] = bare.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  // a dotted IPv4 tail is two groups, and only ever in the low 64 bits
  const tailLength = tailGroups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailLength).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
