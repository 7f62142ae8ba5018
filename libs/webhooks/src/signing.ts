import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** Bytes of randomness in a signing secret (Standard Webhooks asks for 24 to 64). */
const SECRET_BYTES = 32;

/** A new Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The Standard Webhooks headers of one attempt: the timestamp is the time of sending. */
export function signWebhook(secret: string, webhookId: string, body: string, at: Date = new Date()): SignedHeaders {
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(webhookId, at, body),
  };
}
