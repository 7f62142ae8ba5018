import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * A mirror of Open Data as an operator would run one: a directory laid out like the Socrata API
 * (`api/views/ID.json`, `api/views/ID/rows.csv`, `resource/ID.json`), served on loopback. JSON
 * resources are paged with `$offset` / `$limit`; anything else is a 404.
 */
export class SocrataMirror {
  private server: Server | undefined;
  url = '';
  readonly requests: string[] = [];
  /** each data set's JSON rows, parsed once per publication rather than once per page */
  private readonly rows = new Map<string, unknown[]>();

  constructor(readonly root: string) {}

  /** Writes a data set's metadata document, CSV export and JSON rows into the mirror. */
  publish(datasetId: string, files: { metadata?: object; csv?: string; rows?: Record<string, unknown>[] }): void {
    mkdirSync(path.join(this.root, 'api/views', datasetId), { recursive: true });
    mkdirSync(path.join(this.root, 'resource'), { recursive: true });
    if (files.metadata) writeFileSync(path.join(this.root, 'api/views', `${datasetId}.json`), JSON.stringify(files.metadata));
    if (files.csv !== undefined) writeFileSync(path.join(this.root, 'api/views', datasetId, 'rows.csv'), files.csv);
    if (files.rows) writeFileSync(path.join(this.root, 'resource', `${datasetId}.json`), JSON.stringify(files.rows));
    this.rows.clear();
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://mirror');
      this.requests.push(`${url.pathname}${url.search}`);
      const file = path.join(this.root, path.normalize(url.pathname).replace(/^(\.\.[/\\])+/, ''));
      if (!file.startsWith(this.root) || !existsSync(file) || !/\.(json|csv)$/.test(file)) {
        res.writeHead(404).end();
        return;
      }
      if (url.pathname.startsWith('/resource/')) {
        const rows = this.rows.get(file) ?? (JSON.parse(readFileSync(file, 'utf8')) as unknown[]);
        this.rows.set(file, rows);
        const offset = Number(url.searchParams.get('$offset') ?? 0);
        const limit = Number(url.searchParams.get('$limit') ?? 1000);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows.slice(offset, offset + limit)));
        return;
      }
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': file.endsWith('.csv') ? 'text/csv' : 'application/json', 'content-length': body.length }).end(body);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The settings that point an ingest worker at the mirror (loopback, allowed by SOCRATA_ALLOW_PRIVATE_HOST). */
export function mirrorSettings(mirror: SocrataMirror): Record<string, string> {
  return {
    SOCRATA_BASE_URL: mirror.url,
    SOCRATA_ALLOW_PRIVATE_HOST: 'true',
    // the mirror serves sets far smaller than the city's: no minimum row count
    INGEST_ENFORCE_MINIMUM_ROWS: 'false',
  };
}

/** The environment of an ingest worker that downloads from the mirror. */
export function mirrorWorkerEnv(mirror: SocrataMirror, databaseUrl: string, redisPrefix: string): Record<string, string> {
  return { DATABASE_URL: databaseUrl, REDIS_PREFIX: redisPrefix, LOG_LEVEL: 'info', ...mirrorSettings(mirror) };
}
