import type { DownloadPolicy } from '../checked-fetch';
import { readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The download policy for servers on this machine: 127.0.0.1 only, loopback allowed. */
export const LOCAL_DOWNLOADS: DownloadPolicy = { hosts: ['127.0.0.1'], allowLoopback: true };

export interface FakeDataset {
  rowsUpdatedAt: number;
  /** The CSV export (file path). */
  csvFile: string;
  /** `/api/views/ID.json` columns (libs/sources/test-fixtures/soda-metadata has the published ones). */
  columns: { name: string; fieldName: string }[];
  /** Served instead of the metadata document when set (a broken document). */
  body?: string;
  /** What `/resource/ID.json` serves (paged with $offset/$limit). */
  sodaRows: Record<string, unknown>[];
}

/** NYC Open Data as the client sees it, per data set id: metadata, CSV export and SODA pages. */
export class FakeOpenData {
  readonly datasets = new Map<string, FakeDataset>();
  readonly requests: { url: string; token: string | undefined }[] = [];
  /** Answer the next N requests with 503. */
  failNext = 0;
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.url);
    this.requests.push({ url: `${url.pathname}${url.search}`, token: req.headers['x-app-token'] as string | undefined });
    if (this.failNext > 0) {
      this.failNext--;
      res.writeHead(503).end('busy');
      return;
    }
    const match = /^\/(?:api\/views|resource)\/([a-z0-9]{4}-[a-z0-9]{4})(\.json|\/rows\.csv)$/.exec(url.pathname);
    const dataset = match ? this.datasets.get(match[1]) : undefined;
    if (!match || !dataset) {
      res.writeHead(404).end();
      return;
    }
    if (url.pathname.startsWith('/api/views/') && match[2] === '.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(dataset.body ?? JSON.stringify({ id: match[1], rowsUpdatedAt: dataset.rowsUpdatedAt, columns: dataset.columns }));
    } else if (match[2] === '/rows.csv') {
      const body = readFileSync(dataset.csvFile);
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': body.length }).end(body);
    } else {
      const offset = Number(url.searchParams.get('$offset') ?? 0);
      const limit = Number(url.searchParams.get('$limit') ?? 1000);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(dataset.sodaRows.slice(offset, offset + limit)));
    }
  }
}
