import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, describeAddressClass } from './address-policy';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export interface ResolvedTarget {
  url: URL;
  /** The host without IPv6 brackets. */
  host: string;
  /** Every address the host resolved to; all of them passed the address policy. */
  addresses: { address: string; family: 4 | 6 }[];
}

export type TargetCheck = { ok: true; target: ResolvedTarget } | { ok: false; problem: string };

export interface TargetPolicy {
  allowLoopback: boolean;
  /** Private network addresses (10/8, 172.16/12, 192.168/16, fc00::/7) too; link-local and the rest stay refused. */
  allowPrivate?: boolean;
  /**
   * Only https, except plain http to a loopback target when `allowLoopback` is set (a receiver on the
   * same machine in development): a signed payload over http can be read and replayed on the way.
   */
  httpsOnly?: boolean;
  /** DNS resolution, replaceable in tests. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

const defaultResolve = (host: string) => lookup(host, { all: true, verbatim: true });

/** Checks the form of a webhook URL without resolving it. */
export function parseWebhookUrl(raw: string): { ok: true; url: URL } | { ok: false; problem: string } {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, problem: `is longer than ${MAX_WEBHOOK_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'is not a valid absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: 'must use http or https' };
  if (url.username || url.password) return { ok: false, problem: 'must not contain credentials' };
  if (!url.hostname) return { ok: false, problem: 'has no host' };
  return { ok: true, url };
}

/**
 * Resolves the host of a webhook URL and checks every address against the address policy. A host with
 * one refused address is refused as a whole, so a DNS answer cannot mix a public and a private target.
 */
export async function checkWebhookTarget(raw: string, policy: TargetPolicy): Promise<TargetCheck> {
  const parsed = parseWebhookUrl(raw);
  if (!parsed.ok) return parsed;
  const { url } = parsed;
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let resolved: { address: string; family: number }[];
  if (isIP(host)) {
    resolved = [{ address: host, family: isIP(host) }];
  } else {
    try {
      resolved = await (policy.resolve ?? defaultResolve)(host);
    } catch {
      return { ok: false, problem: `host "${host}" does not resolve` };
    }
    if (resolved.length === 0) return { ok: false, problem: `host "${host}" does not resolve` };
  }
  for (const { address } of resolved) {
    const cls = classifyAddress(address);
    if (cls === 'public' || (cls === 'loopback' && policy.allowLoopback) || (cls === 'private' && policy.allowPrivate)) continue;
    const via = address === host ? '' : ` resolves to ${address}, which`;
    return { ok: false, problem: `host "${host}"${via} is ${describeAddressClass(cls)}; webhooks may only target public addresses` };
  }
  if (policy.httpsOnly && url.protocol === 'http:' && !(policy.allowLoopback && resolved.every(({ address }) => classifyAddress(address) === 'loopback'))) {
    return { ok: false, problem: `must use https${policy.allowLoopback ? ' (plain http only to a loopback address)' : ''}` };
  }
  return {
    ok: true,
    target: { url, host, addresses: resolved.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 })) },
  };
}
