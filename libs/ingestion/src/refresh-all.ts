import type { Pool } from 'pg';
import { SourceDefinition, SOURCES } from '@bhis/sources';
import { createRun, sourcesWaitingForOperator } from '@bhis/runs';
import type { IngestService } from './ingest-service';

/**
 * The daily refresh: downloads every source in load order, one run each, one at a time. A source
 * that failed is tried again; one whose download failed permanently (retrying cannot help) waits for
 * the operator and is reported, not downloaded. One failed source never stops the others, and its
 * last good data stays in place. Returns each source's outcome.
 */
export async function refreshAllSources(
  pool: Pool,
  service: IngestService,
  options: { jobId: string; observedOn: string; sources?: readonly SourceDefinition[] },
): Promise<Record<string, string>> {
  const results: Record<string, string> = {};
  const waiting = await sourcesWaitingForOperator(pool);
  for (const source of options.sources ?? SOURCES) {
    const waits = waiting.get(source.key);
    if (waits !== undefined) {
      results[source.key] = `waiting for the operator: ${waits}`;
      continue;
    }
    const runId = await createRun(pool, { source: source.key, trigger: 'refresh', input: 'download', jobId: options.jobId });
    try {
      const result = await service.run({ runId, source: source.key, input: { kind: 'download' }, observedOn: options.observedOn, lastAttempt: true });
      results[source.key] = result.status;
    } catch (error) {
      results[source.key] = `failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return results;
}
