import { Webhook, WebhookVerificationError as LibraryVerificationError } from 'standardwebhooks';

/** A delivery that is not what the service signed (its types stay free of Node's `Buffer`). */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** Headers as a receiver has them: a fetch `Headers`, or Node's `req.headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === null) throw new WebhookVerificationError(`Missing header ${name}`);
  return first;
}

/**
 * Checks a monitor delivery's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) with the monitor's signing secret (`whsec_...`, shown when the monitor was
 * created) and returns the parsed payload. `body` is the raw request body, exactly as received. Throws
 * WebhookVerificationError for a wrong signature, or a timestamp more than five minutes from now (a replay).
 */
export function verifyWebhook<T = unknown>(secret: string, body: string | Uint8Array, headers: WebhookHeaders): T {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const signed = {
    'webhook-id': header(headers, 'webhook-id'),
    'webhook-timestamp': header(headers, 'webhook-timestamp'),
    'webhook-signature': header(headers, 'webhook-signature'),
  };
  try {
    return new Webhook(secret).verify(text, signed) as T;
  } catch (error) {
    if (error instanceof LibraryVerificationError) throw new WebhookVerificationError(error.message);
    throw error;
  }
}
