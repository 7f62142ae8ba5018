/** What ran out, for Postgres' "insufficient resources" errors (SQLSTATE class 53). */
const RESOURCES: Record<string, string> = {
  '53000': 'resources',
  '53100': 'disk space',
  '53200': 'memory',
  '53300': 'connections',
  '53400': 'a configured limit',
};

const KEPT = 'Nothing of this load was kept and the source still serves its previous data';

/**
 * The message a failed load leaves on its run. A full disk (or another exhausted resource, a staging
 * thread's heap included) is said in plain words, with what happened to the data; any other failure
 * keeps its own message.
 */
export function describeLoadFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return `A staging thread ran out of its heap, bounded by INGEST_THREAD_HEAP_MB (${message}). ${KEPT}; raise the setting and run the load again.`;
  }
  const resource = typeof code === 'string' ? RESOURCES[code] : undefined;
  if (resource === undefined) return message;
  return (
    `Postgres ran out of ${resource} during the load (SQLSTATE ${code}: ${message}). ` +
    `${KEPT}; make room and run the load again.`
  );
}
