/**
 * The typed contract of every queue: one union of `{ name, data }` per queue.
 * Producers and workers import these; a worker refuses to start without a handler for each name.
 */

export const QUEUES = { ingest: 'ingest', scoring: 'scoring', webhooks: 'webhooks' } as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/**
 * `complete`: the file (or URL) is the source's whole data set, as a download's full export is: the
 * stored records it no longer carries are closed as vanished. Without it a file may be an extract, and
 * nothing is closed.
 */
export type IngestInput =
  | { kind: 'file'; path: string; complete?: boolean }
  | { kind: 'url'; url: string; complete?: boolean }
  | { kind: 'download' };

export type IngestJob =
  | { name: 'ingest-source'; data: { runId: string; source: string; input: IngestInput; scoreAfter?: boolean; observedOn: string } }
  | { name: 'refresh-all'; data: { date: string; scoreAfter: boolean } };

export type ScoringJob =
  | { name: 'score'; data: { runId: string; kind: 'full' | 'incremental'; asOf: string; bbls?: string[] } }
  | { name: 'backfill'; data: { runId: string; asOfDates: string[] } }
  /** One BBL range of a full run (scoring_run_parts); any scoring worker takes it. */
  | { name: 'score-part'; data: { runId: string; part: number } }
  /** The end of a full run once every part is scored: the peer pass and the switch. */
  | { name: 'score-finish'; data: { runId: string } };

export type WebhookJob =
  | { name: 'dispatch-crossings'; data: { scoringRunId: string } }
  | { name: 'deliver'; data: { deliveryId: string } };

export interface JobsByQueue {
  ingest: IngestJob;
  scoring: ScoringJob;
  webhooks: WebhookJob;
}

export type JobName<Q extends QueueName> = JobsByQueue[Q]['name'];
export type JobData<Q extends QueueName, N extends JobName<Q>> = Extract<JobsByQueue[Q], { name: N }>['data'];

/** Every job name a queue carries, so a worker can check it has a handler for each. */
export const JOB_NAMES: { [Q in QueueName]: readonly JobName<Q>[] } = {
  ingest: ['ingest-source', 'refresh-all'],
  scoring: ['score', 'backfill', 'score-part', 'score-finish'],
  webhooks: ['dispatch-crossings', 'deliver'],
};
