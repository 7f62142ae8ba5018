import { isIP } from 'node:net';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL with scheme ${protocols.map((p) => p.replace(':', '')).join(' or ')}` },
  );

const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`);

/** Every environment variable the apps read, with defaults that point at the local services. */
const schema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).default('postgres://postgres@127.0.0.1:5432/bhis'),
  DATABASE_POOL_SIZE: int(1, 200).default(20),
  /**
   * Streaming replicas (comma-separated URLs) the API reads published data from: building documents,
   * events, search, trajectory, analysis, export. Keys, monitors and admin reads stay on the primary.
   */
  DATABASE_READ_URL: z
    .string()
    .transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean))
    .pipe(z.array(url(['postgres:', 'postgresql:'])))
    .default([]),
  /** A replica further behind the primary than this is not read from (the primary serves instead). */
  DATABASE_READ_MAX_LAG_MS: int(0, 3_600_000).default(10_000),
  REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
  /** Namespaces every Redis key (queues, rate-limit counters), so several deployments can share a Redis. */
  REDIS_PREFIX: z.string().regex(/^[a-z0-9_-]{1,40}$/i, 'must be 1-40 letters, digits, _ or -').default('bhis'),
  PORT: int(0, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** PEM files; when both are set the API serves HTTPS (TLS 1.3 minimum) itself. */
  TLS_CERT: z.string().min(1).optional(),
  TLS_KEY: z.string().min(1).optional(),
  /** Overrides the scheme and host of the absolute URLs in `_links`. */
  PUBLIC_BASE_URL: url(['http:', 'https:']).optional(),
  /**
   * A map tile server of the operator's (an https URL template with {z}, {x} and {y}) the building
   * pages show street tiles from, its origin allowed by their Content-Security-Policy. Unset (the
   * default): the pages draw the borough outlines shipped with the service and load nothing elsewhere.
   */
  WEB_MAP_TILE_URL: url(['https:'])
    .refine((value) => ['{z}', '{x}', '{y}'].every((part) => value.includes(part)), { message: 'must contain {z}, {x} and {y}' })
    .optional(),
  /** The credit the tile server's terms ask for, shown under the tiles (e.g. "© OpenStreetMap contributors"). */
  WEB_MAP_TILE_ATTRIBUTION: z.string().min(1).max(200).optional(),
  /**
   * Browser origins allowed to call the API from their pages (CORS): a comma list of origins as
   * browsers send them (`https://app.example.org`, `http://localhost:5173`), or `*` for any. Unset:
   * no CORS headers, and preflights are answered like any request.
   */
  CORS_ORIGINS: z.string().transform(parseCorsOrigins).default([]),
  /** Express "trust proxy" value: which proxies may set X-Forwarded-Proto/Host (e.g. `loopback` or `10.0.0.0/8`). */
  TRUST_PROXY: z.string().min(1).transform(parseTrustProxy).optional(),
  RATE_LIMIT_LIVE_PER_MIN: int(1, 10_000_000).default(6000),
  RATE_LIMIT_DEMO_PER_MIN: int(1, 10_000_000).default(60),
  /** Requests without a valid key (health, 401s) are limited per client address. */
  RATE_LIMIT_ANONYMOUS_PER_MIN: int(1, 10_000_000).default(120),
  /** Requests with an unknown, revoked or malformed key per client address and minute; past it, 429 instead of a key lookup. */
  RATE_LIMIT_AUTH_FAILURES_PER_MIN: int(1, 10_000_000).default(30),
  /** How often the API writes the batched `last_used_at` of keys. */
  KEY_USAGE_FLUSH_MS: int(100, 3_600_000).default(10_000),
  /**
   * Memory for building documents kept by each API instance (0 turns the cache off). Entries are
   * dropped on every change of the scores or buildings (Postgres notifications); see docs/adr/0006.
   */
  DOCUMENT_CACHE_MB: int(0, 65_536).default(256),
  /** Memory for rendered pages of events, emptied at every change of events or buildings (0 turns it off). */
  EVENTS_CACHE_MB: int(0, 65_536).default(64),
  /** Signs pagination cursors; the same on every instance. Unset: a random key per process, with a warning. */
  CURSOR_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Encrypts monitor signing secrets at rest (AES-256-GCM): 32 random bytes in base64 or hex. A comma
   * list rotates keys: the first seals, all open. Required in production; see docs/security.md.
   */
  WEBHOOK_SECRET_KEY: z.string().min(1).transform(parseSecretKeys).optional(),
  /** Webhook URLs on loopback are refused unless this is set (for local testing only). */
  WEBHOOK_ALLOW_LOOPBACK: bool.default(false),
  /** Hosts an admin ingest from a URL may download from (comma list); their addresses must also be public. */
  INGEST_URL_HOSTS: z.string().default('data.cityofnewyork.us'),
  /**
   * How long a worker holds a job's lock between renewals. A worker that dies (kill -9) keeps it until
   * it expires; then another worker retries the job.
   */
  WORKER_LOCK_MS: int(2_000, 600_000).default(60_000),
  /** A worker touches this file every 10 s while it reaches Postgres and Redis (the container healthcheck reads its age). */
  WORKER_HEARTBEAT_FILE: z.string().min(1).optional(),
  /**
   * Ingest jobs one ingest worker runs at once: with 2, it reads and parses a file while the
   * previous one is merged (merges take turns, one transaction at a time).
   */
  INGEST_CONCURRENCY: int(1, 8).default(2),
  /**
   * A file at least this large (bytes as stored, compressed or not) is staged on two threads when no
   * other file of the worker is staged that way: a file loaded alone parses on both cores
   * (docs/adr/0011-event-storage-and-load-path.md).
   */
  INGEST_SPLIT_MIN_BYTES: int(1, Number.MAX_SAFE_INTEGER).default(16 << 20),
  /** The chunks of text a file staged on two threads is cut into are at least this large (each thread takes every other one). */
  INGEST_SPLIT_CHUNK_BYTES: int(4096, 1 << 30).default(1 << 20),
  /**
   * The V8 old generation each staging thread may grow to, in MB. A worker stages up to three files'
   * worth at once (two loads, one of them on two threads); a thread that needs more fails its run
   * with a message naming this setting (docs/scaling.md, "The ingest worker's memory").
   */
  INGEST_THREAD_HEAP_MB: int(32, 16_384).default(256),
  /**
   * A CSV file is parsed, mapped and COPYed in a staging thread while the worker's main thread reads
   * it and merges (libs/ingestion/src/staging-thread.ts); false stages it in the main thread, one core
   * per load. Threads are kept for the next file, so starting one is paid once, not per file.
   */
  INGEST_STAGING_THREADS: bool.default(true),
  /**
   * Parts a scoring run is split into (by BBL range; at least 250 buildings a part): full runs, and
   * incremental runs of the buildings marked changed from 500 on. Every scoring worker (and every
   * process of one, `SCORING_PROCESSES`) takes parts, so more of them score one run together. Parts
   * hold equal numbers of buildings, not equal work (a Manhattan range costs more than one of Staten
   * Island): with 8, the whole city's first full run on two processes spent its last ~2 minutes on one
   * part alone (docs/scaling.md); 16 halves that tail.
   */
  SCORING_PARTS: int(1, 256).default(16),
  /**
   * Processes the scoring app runs (node:cluster), each a worker of its own: a scoring process keeps
   * one core busy, so on one machine set it to about its cores, or run one per container instead.
   */
  SCORING_PROCESSES: int(1, 64).default(1),
  /** Daily refresh of all sources (cron syntax, New York time). */
  REFRESH_CRON: z.string().min(1).default('0 6 * * *'),
  REFRESH_ENABLED: bool.default(false),
  SOCRATA_BASE_URL: url(['http:', 'https:']).default('https://data.cityofnewyork.us'),
  SOCRATA_APP_TOKEN: z.string().min(1).optional(),
  /**
   * SOCRATA_BASE_URL may be on a loopback or private address (a mirror or caching proxy the operator
   * runs). Off: public addresses only. Downloads from URLs (admin API, CLI) stay public-only either way.
   */
  SOCRATA_ALLOW_PRIVATE_HOST: bool.default(false),
  /**
   * A first load from Open Data with fewer records than the source's minimum is refused as a truncated
   * download. Off only for a mirror that serves a sample of each data set.
   */
  INGEST_ENFORCE_MINIMUM_ROWS: bool.default(true),
  /** Where downloads and synthetic cities are written. */
  DATA_DIR: z.string().min(1).default('./data'),
});

export type AppConfig = z.infer<typeof schema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const SECRET_VARIABLE = /KEY|TOKEN|CERT|SECRET|PASSWORD|_URL$/;

/**
 * TRUST_PROXY: a hop count (1-10), or a comma list of loopback, linklocal, uniquelocal, IP addresses
 * and CIDR ranges. "true" (trust every client's X-Forwarded-For) and anything else are refused.
 */
const TRUST_PROXY_ITEM = /^(loopback|linklocal|uniquelocal|(\d{1,3}\.){3}\d{1,3}(\/\d{1,2})?|[0-9a-fA-F:]*:[0-9a-fA-F:.]*(\/\d{1,3})?)$/;

function parseTrustProxy(value: string, ctx: z.RefinementCtx): number | string[] {
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops >= 1 && hops <= 10) return hops;
  } else {
    const items = value.split(',').map((item) => item.trim());
    if (items.every((item) => TRUST_PROXY_ITEM.test(item) && (isIP(item.split('/')[0]) !== 0 || !/[\d:]/.test(item)))) return items;
  }
  ctx.addIssue({ code: 'custom', message: 'must be a hop count 1-10 or a comma list of loopback, linklocal, uniquelocal, IP addresses and CIDR ranges' });
  return z.NEVER;
}

/**
 * CORS_ORIGINS: `*` alone, or origins exactly as a browser sends them in `Origin`: an http or https
 * scheme, a lower-case host, a port only when not the scheme's default, no path or trailing slash.
 */
function parseCorsOrigins(value: string, ctx: z.RefinementCtx): string[] {
  const items = value.split(',').map((item) => item.trim()).filter(Boolean);
  if (items.length === 1 && items[0] === '*') return items;
  const bad = items.filter((item) => {
    try {
      const url = new URL(item);
      return !['http:', 'https:'].includes(url.protocol) || url.origin !== item;
    } catch {
      return true;
    }
  });
  if (items.length > 0 && bad.length === 0) return items;
  ctx.addIssue({
    code: 'custom',
    message: `must be * or a comma list of origins such as https://app.example.org (scheme and host, lower case, no path or trailing slash)${bad.length > 0 ? `; not an origin: ${bad.slice(0, 3).map((b) => JSON.stringify(b.slice(0, 60))).join(', ')}` : ''}`,
  });
  return z.NEVER;
}

/** WEBHOOK_SECRET_KEY: one or more 32-byte keys, each 64 hex digits or base64 (with or without padding). */
function parseSecretKeys(value: string, ctx: z.RefinementCtx): Buffer[] {
  const keys = value.split(',').map((part) => part.trim());
  const decoded: Buffer[] = [];
  for (const key of keys) {
    if (/^[0-9a-fA-F]{64}$/.test(key)) decoded.push(Buffer.from(key, 'hex'));
    else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(key)) decoded.push(Buffer.from(key.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
  }
  if (decoded.length === keys.length && decoded.every((key) => key.length === 32)) return decoded;
  ctx.addIssue({ code: 'custom', message: 'must be 32 random bytes as 64 hex digits or base64 (a comma list to rotate keys)' });
  return z.NEVER;
}

/** Parses an environment (default `process.env`); throws ConfigError naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const relevant: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') relevant[key] = value;
  }
  const result = schema.safeParse(relevant);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const key = issue.path.join('.');
        const value = relevant[key];
        // secrets, and URLs that may carry a password, are named but never shown
        const shown = value === undefined || SECRET_VARIABLE.test(key) ? '' : ` (got "${value.slice(0, 60)}")`;
        return `${key}: ${issue.message}${shown}`;
      }),
    );
  }
  if (Boolean(result.data.TLS_CERT) !== Boolean(result.data.TLS_KEY)) {
    throw new ConfigError(['TLS_CERT and TLS_KEY: set both or neither']);
  }
  return result.data;
}

let cached: AppConfig | undefined;

/** The process configuration, parsed once. */
export function getConfig(): AppConfig {
  cached ??= parseConfig();
  return cached;
}

function exitOnConfigError(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78); // EX_CONFIG
  }
  throw error;
}

/** Parses the config at boot and exits with a readable message when it is wrong. */
export function loadConfigOrExit(): AppConfig {
  try {
    return getConfig();
  } catch (error) {
    return exitOnConfigError(error);
  }
}

/**
 * Runs an app's start. A configuration problem found while the app is built (a provider that needs a
 * setting the environment lacks) ends the process as a bad variable does at parse time: its message
 * and exit code 78, no stack trace; anything else is printed with its stack and exits 1.
 */
export function startOrExit(start: () => Promise<unknown>): Promise<void> {
  return start().then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof ConfigError) exitOnConfigError(error);
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
