import type { Pool } from 'pg';
import { sendWebhookRequest, SendResult } from './http-sender';
import { AttemptRecord, claimDelivery, ClaimedDelivery, recordAttempt } from './outbox';
import { nextRetryDelayMs, parseRetryAfter, RetryPolicy } from './retry-schedule';
import type { SecretBox } from './secret-box';
import { signWebhook } from './signing';
import { checkWebhookTarget, TargetPolicy } from './webhook-url';

export interface DeliveryAttemptOptions {
  timeoutMs: number;
  /** How long a claimed delivery stays locked; longer than the timeout, so only a dead worker's lock expires. */
  lockMs: number;
  retry: RetryPolicy;
  target: TargetPolicy;
  /** Opens the stored signing secrets. */
  secrets: SecretBox;
}

export type AttemptSummary =
  | { kind: 'skipped' }
  | { kind: 'done'; deliveryId: string; attempt: number; record: AttemptRecord };

/** What to record for an HTTP result: 2xx delivered, 410 gone, anything else a retry until none are left. */
export function classifyResult(claimed: ClaimedDelivery, result: SendResult, retry: RetryPolicy): AttemptRecord {
  const { statusCode, durationMs } = result;
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return { outcome: 'delivered', statusCode, durationMs };
  if (statusCode === 410) return { outcome: 'gone', statusCode, durationMs };
  const error =
    result.error ??
    (statusCode !== null && statusCode >= 300 && statusCode < 400 ? `redirect (HTTP ${statusCode}) not followed` : `HTTP ${statusCode}`);
  const retryInMs = nextRetryDelayMs(retry, claimed.attempt, parseRetryAfter(result.retryAfter));
  if (retryInMs === null) return { outcome: 'failed', statusCode, durationMs, error: `${error}; no attempts left` };
  return { outcome: 'retry', statusCode, durationMs, error, retryInMs };
}

/** The clear signing secret, or null when no configured key opens it (nothing is sent unsigned). */
function openSecret(secrets: SecretBox, stored: string): string | null {
  try {
    return secrets.open(stored);
  } catch {
    return null;
  }
}

/**
 * One delivery attempt: claim the outbox row, check the target again (its DNS may have changed since the
 * monitor was created), sign, send to the checked address and record the outcome.
 */
export async function attemptDelivery(pool: Pool, deliveryId: string, options: DeliveryAttemptOptions): Promise<AttemptSummary> {
  const claimed = await claimDelivery(pool, deliveryId, options.lockMs);
  if (!claimed) return { kind: 'skipped' };
  const check = await checkWebhookTarget(claimed.webhookUrl, options.target);
  let result: SendResult;
  if (!check.ok) {
    result = { statusCode: null, durationMs: 0, retryAfter: undefined, error: `webhook_url ${check.problem}` };
  } else {
    const secret = openSecret(options.secrets, claimed.signingSecret);
    if (secret === null) {
      result = { statusCode: null, durationMs: 0, retryAfter: undefined, error: 'the signing secret cannot be opened with the configured WEBHOOK_SECRET_KEY' };
    } else {
      // a previous secret no configured key opens only loses its signature; the current one still signs
      const previous = claimed.previousSigningSecret === null ? null : openSecret(options.secrets, claimed.previousSigningSecret);
      const headers = signWebhook(previous === null ? [secret] : [secret, previous], claimed.webhookId, claimed.payload);
      result = await sendWebhookRequest(check.target, { ...headers }, claimed.payload, options.timeoutMs);
    }
  }
  const record = classifyResult(claimed, result, options.retry);
  await recordAttempt(pool, claimed, record);
  return { kind: 'done', deliveryId: claimed.id, attempt: claimed.attempt, record };
}
