import type { JobsOptions } from 'bullmq';
import { ContractQueue, DEFAULT_JOB_OPTIONS, JobData } from '@bhis/queue';

/** One dispatch per scoring run: enqueueing the same run twice adds nothing. */
export function dispatchJobId(scoringRunId: string): string {
  return `dispatch-crossings.${scoringRunId}`;
}

/** One job per (delivery, attempt): a sweep that finds a delivery already queued for this attempt adds nothing. */
export function deliveryJobId(deliveryId: string, attempt: number): string {
  return `deliver.${deliveryId}.${attempt}`;
}

/**
 * Delivery jobs only wake a worker up: the outbox row says what to send and when. They are removed when
 * done so the same id can be queued again by a sweep; retries of a failed HTTP attempt are scheduled by
 * the outbox, the job's own attempts only cover database or Redis errors.
 */
const DELIVERY_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: true,
  removeOnFail: true,
};

/**
 * Queues the webhook dispatch of a finished scoring run's grade crossings. Call it after the run's
 * `grade_crossings` rows are committed.
 */
export async function enqueueCrossingDispatch(queue: ContractQueue<'webhooks'>, scoringRunId: string): Promise<{ jobId: string }> {
  const jobId = dispatchJobId(scoringRunId);
  const data: JobData<'webhooks', 'dispatch-crossings'> = { scoringRunId };
  await queue.add('dispatch-crossings', data, { ...DEFAULT_JOB_OPTIONS, jobId });
  return { jobId };
}

/** Queues attempt `attempt` of a delivery, optionally after a delay. */
export async function enqueueDelivery(queue: ContractQueue<'webhooks'>, deliveryId: string, attempt: number, delayMs = 0): Promise<void> {
  const data: JobData<'webhooks', 'deliver'> = { deliveryId };
  await queue.add('deliver', data, { ...DELIVERY_JOB_OPTIONS, jobId: deliveryJobId(deliveryId, attempt), delay: Math.max(0, Math.round(delayMs)) });
}

/** Queues the first attempt of many deliveries at once. */
export async function enqueueDeliveries(queue: ContractQueue<'webhooks'>, deliveries: { id: string; attempt: number }[]): Promise<void> {
  for (let i = 0; i < deliveries.length; i += 500) {
    await queue.addBulk(
      deliveries.slice(i, i + 500).map(({ id, attempt }) => ({
        name: 'deliver',
        data: { deliveryId: id } satisfies JobData<'webhooks', 'deliver'>,
        opts: { ...DELIVERY_JOB_OPTIONS, jobId: deliveryJobId(id, attempt) },
      })),
    );
  }
}
