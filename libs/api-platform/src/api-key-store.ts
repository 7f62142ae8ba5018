import type { Pool } from 'pg';
import { CHANGE_CHANNELS, ChangeListener, NotifiedCache } from '@bhis/db';
import { ApiKeyKind, hashApiKey, hashesEqual, parsePresentedKey, Scope } from '@bhis/domain';

export interface AuthenticatedKey {
  id: string;
  name: string;
  kind: ApiKeyKind;
  prefix: string;
  scopes: Scope[];
  rateLimitPerMin: number | null;
}

export type KeyCheck =
  | { ok: true; key: AuthenticatedKey }
  | { ok: false; reason: 'malformed' | 'unknown' | 'expired' | 'revoked' };

interface KeyRow {
  id: string;
  name: string;
  kind: ApiKeyKind;
  prefix: string;
  key_hash: string;
  scopes: Scope[];
  rate_limit_per_min: number | null;
  expires_at: Date | null;
  revoked: boolean;
}

/** The most known keys, and separately the most unknown keys, kept in memory. */
const CACHED_KEYS = 10_000;

/** The lookup prefixes of every stored key (revoked and expired ones included). */
interface StoredPrefixes {
  all: ReadonlySet<string>;
}

/** What the cache keeps for a well-formed key that matches no row. */
interface UnknownKey {
  unknown: true;
}

/**
 * Checks presented keys and records `last_used_at` in batches instead of one write per request.
 *
 * Known keys are kept in memory by the hash of the presented key. Every change of `api_keys` (revocation,
 * expiry, scopes, deletion) is announced by Postgres at commit and empties the cache of every instance,
 * so a revocation holds on the next request; while the notification connection is down, every request
 * is checked in Postgres. Well-formed keys that match no row are remembered the same way, so a client
 * repeating an unknown key causes no database work (and a malformed key never does). See
 * docs/adr/0006-in-memory-caches.md.
 */
export class ApiKeyStore {
  private readonly usedSince = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly cache: NotifiedCache<KeyRow>;
  /** Unknown keys, so a repeated unknown key costs no database work (emptied by any change, key creation included). */
  private readonly unknown: NotifiedCache<UnknownKey>;
  private readonly prefixes: NotifiedCache<StoredPrefixes>;
  private loadingPrefixes: Promise<StoredPrefixes | undefined> | null = null;

  constructor(
    private readonly pool: () => Pool,
    private readonly flushEveryMs: number,
    private readonly listener: ChangeListener,
  ) {
    this.cache = new NotifiedCache<KeyRow>(listener, [CHANGE_CHANNELS.apiKeys], { maxEntries: CACHED_KEYS });
    this.unknown = new NotifiedCache<UnknownKey>(listener, [CHANGE_CHANNELS.apiKeys], { maxEntries: CACHED_KEYS });
    this.prefixes = new NotifiedCache<StoredPrefixes>(listener, [CHANGE_CHANNELS.apiKeys], { maxEntries: 1 });
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flushUsage().catch(() => undefined), this.flushEveryMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flushUsage().catch(() => undefined);
  }

  /**
   * Checks a presented key. `beforeLookup` runs only when the key has to be looked up in Postgres (not
   * for a malformed key, nor one known from memory); it may throw to refuse the request instead, and
   * may ask whether the key's lookup prefix is one of a stored key (`sharesStoredPrefix`).
   */
  async check(presented: string, beforeLookup?: (sharesStoredPrefix: () => Promise<boolean>) => Promise<void>): Promise<KeyCheck> {
    const parsed = parsePresentedKey(presented);
    if (!parsed) return { ok: false, reason: 'malformed' };
    const hash = hashApiKey(presented);
    const known = this.fromMemory(hash);
    if (known) return known;
    const generation = this.unknown.generation();
    const match = await this.cache.getOrLoad(hash, async () => {
      await beforeLookup?.(() => this.isStoredPrefix(parsed.prefix));
      return this.load(parsed.prefix, hash);
    });
    if (!match) this.unknown.setIfUnchanged(generation, hash, { unknown: true });
    return this.verdict(match);
  }

  /** The check of a malformed key or of one known from memory (valid, revoked or unknown); undefined: it needs a lookup. */
  checkFromMemory(presented: string): KeyCheck | undefined {
    if (!parsePresentedKey(presented)) return { ok: false, reason: 'malformed' };
    return this.fromMemory(hashApiKey(presented));
  }

  private fromMemory(hash: string): KeyCheck | undefined {
    if (this.unknown.get(hash)) return { ok: false, reason: 'unknown' };
    const match = this.cache.get(hash);
    return match ? this.verdict(match) : undefined;
  }

  private verdict(match: KeyRow | undefined): KeyCheck {
    if (!match) return { ok: false, reason: 'unknown' };
    if (match.revoked) return { ok: false, reason: 'revoked' };
    if (match.expires_at !== null && match.expires_at.getTime() <= Date.now()) return { ok: false, reason: 'expired' };
    this.usedSince.add(match.id);
    return {
      ok: true,
      key: {
        id: match.id,
        name: match.name,
        kind: match.kind,
        prefix: match.prefix,
        scopes: match.scopes,
        rateLimitPerMin: match.rate_limit_per_min,
      },
    };
  }

  /**
   * Whether some stored key has this lookup prefix: a valid key always does, a guessed one almost never
   * (8 random characters). The prefixes are read in one query and kept until `api_keys` changes; while
   * the notification connection is down nothing is kept, and the one prefix is looked up in the index.
   */
  private async isStoredPrefix(prefix: string): Promise<boolean> {
    if (!this.listener.isLive()) {
      const { rows } = await this.pool().query<{ stored: boolean }>({
        name: 'api_key_prefix_stored',
        text: 'SELECT EXISTS (SELECT 1 FROM api_keys WHERE prefix = $1) AS stored',
        values: [prefix],
      });
      return rows[0]?.stored ?? true;
    }
    const stored = this.prefixes.get('all') ?? (await this.loadPrefixes());
    return stored?.all.has(prefix) ?? true;
  }

  private loadPrefixes(): Promise<StoredPrefixes | undefined> {
    this.loadingPrefixes ??= this.prefixes
      .getOrLoad('all', async () => {
        const { rows } = await this.pool().query<{ prefix: string }>({ name: 'api_key_prefixes', text: 'SELECT DISTINCT prefix FROM api_keys' });
        return { all: new Set(rows.map((r) => r.prefix)) };
      })
      .finally(() => (this.loadingPrefixes = null));
    return this.loadingPrefixes;
  }

  private async load(prefix: string, hash: string): Promise<KeyRow | undefined> {
    const { rows } = await this.pool().query<KeyRow>({
      name: 'api_key_by_prefix',
      text: `SELECT id, name, kind, prefix, key_hash, scopes, rate_limit_per_min, expires_at,
                    (revoked_at IS NOT NULL) AS revoked
               FROM api_keys WHERE prefix = $1`,
      values: [prefix],
    });
    // compare against every candidate so the time taken does not depend on which one matches
    let match: KeyRow | undefined;
    for (const row of rows) if (hashesEqual(row.key_hash, hash)) match = row;
    return match;
  }

  async flushUsage(): Promise<void> {
    if (this.usedSince.size === 0) return;
    const ids = [...this.usedSince];
    this.usedSince.clear();
    try {
      await this.pool().query('UPDATE api_keys SET last_used_at = now() WHERE id = ANY($1::uuid[])', [ids]);
    } catch (error) {
      for (const id of ids) this.usedSince.add(id);
      throw error;
    }
  }
}
