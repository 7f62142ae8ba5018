import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export type ApiKeyKind = 'live' | 'demo';

const KIND_PREFIX: Readonly<Record<ApiKeyKind, string>> = { live: 'sk_live_', demo: 'sk_demo_' };
/** Characters of the secret part kept in clear as the lookup prefix (not enough to guess the rest). */
const LOOKUP_CHARS = 8;
const SECRET_BYTES = 32;
const KEY_SHAPE = /^sk_(live|demo)_([A-Za-z0-9_-]{43})$/;

export interface GeneratedApiKey {
  /** The full key: shown once, never stored. */
  readonly key: string;
  /** `sk_live_` + the first characters of the secret: stored and shown to identify the key. */
  readonly prefix: string;
  /** SHA-256 of the full key, hex. */
  readonly hash: string;
  readonly kind: ApiKeyKind;
}

export function generateApiKey(kind: ApiKeyKind): GeneratedApiKey {
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  const key = `${KIND_PREFIX[kind]}${secret}`;
  return { key, prefix: lookupPrefix(key), hash: hashApiKey(key), kind };
}

export function hashApiKey(key: string): string {
  // one-shot: a third of createHash's cost, and it runs on every request that carries a key
  return hash('sha256', key, 'hex');
}

function lookupPrefix(key: string): string {
  const kind = key.startsWith(KIND_PREFIX.demo) ? 'demo' : 'live';
  return key.slice(0, KIND_PREFIX[kind].length + LOOKUP_CHARS);
}

/** Splits a presented key into its lookup prefix and kind, or null when it cannot be one of ours. */
export function parsePresentedKey(key: string): { prefix: string; kind: ApiKeyKind } | null {
  const match = KEY_SHAPE.exec(key);
  if (!match) return null;
  return { prefix: lookupPrefix(key), kind: match[1] as ApiKeyKind };
}

/** Constant-time comparison of two hex digests of equal length. */
export function hashesEqual(aHex: string, bHex: string): boolean {
  const a = Buffer.from(aHex, 'hex');
  const b = Buffer.from(bHex, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}
