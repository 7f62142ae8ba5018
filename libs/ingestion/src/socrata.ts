import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { SourcePart } from '@bhis/sources';
import { socrataUrls } from '@bhis/sources';
import { DownloadPolicy, fetchChecked, PermanentDownloadError } from './checked-fetch';
import { DatasetMetadata, DatasetMetadataError, readDatasetMetadata } from './dataset-metadata';

export interface SocrataOptions {
  baseUrl: string;
  appToken?: string;
  timeoutMs?: number;
  retries?: number;
  pageSize?: number;
  /** Every hop of every download (redirects included) is checked against it. */
  policy: DownloadPolicy;
}

export { PermanentDownloadError };

const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * Client for the NYC Open Data (Socrata) endpoints of a source part: metadata (rowsUpdatedAt),
 * the whole-set CSV export, and SODA JSON pages with `$where=:updated_at > last` for incremental pulls.
 */
export class SocrataClient {
  constructor(private readonly options: SocrataOptions) {}

  get policy(): DownloadPolicy {
    return this.options.policy;
  }

  private urls(part: SourcePart) {
    if (!part.datasetId) throw new PermanentDownloadError(`${part.part} is not published on Open Data`);
    return socrataUrls(part.datasetId, this.options.baseUrl.replace(/\/$/, ''));
  }

  private headers(): Record<string, string> {
    return this.options.appToken ? { 'X-App-Token': this.options.appToken } : {};
  }

  private async fetchWithRetry(url: string, accept: string): Promise<Response> {
    const attempts = (this.options.retries ?? 3) + 1;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const res = await fetchChecked(
          url,
          { headers: { Accept: accept, ...this.headers() }, signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000) },
          this.options.policy,
        );
        if (res.ok) return res;
        await res.body?.cancel();
        if (!RETRYABLE.has(res.status)) throw new PermanentDownloadError(`${url} answered ${res.status}`);
        lastError = new Error(`${url} answered ${res.status}`);
        const retryAfter = Number(res.headers.get('retry-after'));
        if (attempt < attempts) await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoff(attempt));
      } catch (error) {
        if (error instanceof PermanentDownloadError) throw error;
        lastError = error;
        if (attempt < attempts) await sleep(backoff(attempt));
      }
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }

  /** The data set's metadata: `rowsUpdatedAt` (a download is needed only when it changed) and its columns. */
  async metadata(part: SourcePart): Promise<DatasetMetadata> {
    const res = await this.fetchWithRetry(this.urls(part).metadata, 'application/json');
    const dataset = `data set ${part.datasetId} (${part.part})`;
    let json: unknown;
    try {
      json = JSON.parse(await res.text());
    } catch (error) {
      throw new DatasetMetadataError(`${dataset}: the view metadata is not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    return readDatasetMetadata(json, dataset);
  }

  /** `rowsUpdatedAt` (epoch seconds) of the data set. */
  async rowsUpdatedAt(part: SourcePart): Promise<number | null> {
    return (await this.metadata(part)).rowsUpdatedAt;
  }

  /** The whole data set as CSV (display column names), streamed. */
  async csvExport(part: SourcePart): Promise<{ stream: Readable; totalBytes: number | null }> {
    const res = await this.fetchWithRetry(this.urls(part).csv, 'text/csv');
    const length = Number(res.headers.get('content-length'));
    if (!res.body) throw new Error('empty response body');
    return { stream: Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>), totalBytes: Number.isFinite(length) && length > 0 ? length : null };
  }

  /** Rows changed since `since` (ISO), page by page, ordered by the system id so pages do not overlap. */
  async *updatedRows(part: SourcePart, since: string | null): AsyncGenerator<Record<string, unknown>> {
    const pageSize = this.options.pageSize ?? 50_000;
    const base = this.urls(part).json;
    for (let offset = 0; ; offset += pageSize) {
      const params = new URLSearchParams({ $limit: String(pageSize), $offset: String(offset), $order: ':id' });
      if (since) params.set('$where', `:updated_at > '${since.replace(/'/g, '')}'`);
      const res = await this.fetchWithRetry(`${base}?${params.toString()}`, 'application/json');
      const rows = (await res.json()) as Record<string, unknown>[];
      if (!Array.isArray(rows)) throw new Error('unexpected SODA response');
      yield* rows;
      if (rows.length < pageSize) return;
    }
  }
}

function backoff(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
