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

/**
 * The Standard Webhooks headers of one attempt: the timestamp is the time of sending. With several
 * secrets (the current one first, then one being rotated out) `webhook-signature` carries one
 * signature per secret, space-delimited, as the specification allows; a receiver accepts the request
 * when any of them verifies under its secret.
 */
export function signWebhook(secret: string | readonly string[], webhookId: string, body: string, at: Date = new Date()): SignedHeaders {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(webhookId, at, body)).join(' '),
  };
}
