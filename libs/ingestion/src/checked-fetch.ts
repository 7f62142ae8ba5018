import { checkWebhookTarget } from '@bhis/webhooks';

/** A permanent failure (404, 400, a refused hop...): retrying cannot help. */
export class PermanentDownloadError extends Error {}

/** Where downloads may go: the configured source hosts, public addresses only (loopback for local tests). */
export interface DownloadPolicy {
  /** Lower-case host names every hop must be on (INGEST_URL_HOSTS plus the Open Data base host). */
  hosts: string[];
  allowLoopback: boolean;
  /** Private network addresses too (a mirror of Open Data the operator runs; never link-local). */
  allowPrivate?: boolean;
  /** DNS resolution, replaceable in tests. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

export const MAX_DOWNLOAD_REDIRECTS = 5;

async function checkHop(url: string, policy: DownloadPolicy): Promise<void> {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    throw new PermanentDownloadError(`download refused: "${url}" is not a valid absolute URL`);
  }
  if (!policy.hosts.includes(host)) {
    throw new PermanentDownloadError(`download refused: host "${host}" is not one of the configured source hosts (${policy.hosts.join(', ')})`);
  }
  const check = await checkWebhookTarget(url, { allowLoopback: policy.allowLoopback, allowPrivate: policy.allowPrivate, resolve: policy.resolve });
  if (!check.ok) throw new PermanentDownloadError(`download refused: ${url} ${check.problem.replace('webhooks may only', 'downloads may only')}`);
}

/**
 * `fetch` that checks every hop against the download policy: redirects are followed by hand (at most
 * MAX_DOWNLOAD_REDIRECTS), and a hop to another host or a non-public address is a permanent error.
 * The address is checked before the request, so a DNS answer that changes between the check and the
 * connection is not covered (as for the admin API's URL check).
 */
export async function fetchChecked(url: string, init: RequestInit, policy: DownloadPolicy): Promise<Response> {
  let current = url;
  for (let hop = 0; ; hop++) {
    await checkHop(current, policy);
    const res = await fetch(current, { ...init, redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return res;
    await res.body?.cancel();
    if (hop >= MAX_DOWNLOAD_REDIRECTS) throw new PermanentDownloadError(`download refused: more than ${MAX_DOWNLOAD_REDIRECTS} redirects from ${url}`);
    current = new URL(location, current).toString();
  }
}

/** Downloads from a URL given to the admin API or the CLI: INGEST_URL_HOSTS plus the Open Data base host, public addresses only. */
export function downloadPolicyFor(config: { INGEST_URL_HOSTS: string; SOCRATA_BASE_URL: string }): DownloadPolicy {
  const hosts = config.INGEST_URL_HOSTS.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  return { hosts: [...new Set([...hosts, new URL(config.SOCRATA_BASE_URL).hostname.toLowerCase()])], allowLoopback: false };
}

/**
 * The Socrata client's downloads: the same hosts, public addresses unless the operator says the
 * SOCRATA_BASE_URL host is a mirror or caching proxy of its own (SOCRATA_ALLOW_PRIVATE_HOST: loopback
 * and private addresses, never link-local). The URL downloads above keep their rule either way.
 */
export function socrataPolicyFor(config: { INGEST_URL_HOSTS: string; SOCRATA_BASE_URL: string; SOCRATA_ALLOW_PRIVATE_HOST: boolean }): DownloadPolicy {
  const allow = config.SOCRATA_ALLOW_PRIVATE_HOST;
  return { ...downloadPolicyFor(config), allowLoopback: allow, allowPrivate: allow };
}
