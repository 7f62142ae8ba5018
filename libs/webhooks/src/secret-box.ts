import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { ConfigError } from '@bhis/config';

/** Bytes of an AES-256-GCM key. */
export const SECRET_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEALED_PREFIX = 'enc:v1:';

/** A key of a fixed, published label: it hides secrets from a casual read of the table, nothing more. */
const DEVELOPMENT_KEY = createHash('sha256').update('bhis development webhook secret key').digest();

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/** The first 8 hex digits of the key's SHA-256: names the key in a sealed value without revealing it. */
function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * Encrypts monitor signing secrets at rest (AES-256-GCM, a random 96-bit IV per value). A sealed value
 * reads `enc:v1:<key id>:<base64 of iv | tag | ciphertext>`; the key id lets several keys open values
 * during a rotation: the first key seals, every key opens. A value without the prefix is a secret stored
 * before encryption and is returned as it is (the webhook worker seals those at start).
 */
export class SecretBox {
  private readonly sealing: { id: string; key: Buffer };
  private readonly opening: Map<string, Buffer>;

  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new SecretBoxError('a secret box needs at least one key');
    for (const key of keys) {
      if (key.length !== SECRET_KEY_BYTES) throw new SecretBoxError(`a secret box key must be ${SECRET_KEY_BYTES} bytes`);
    }
    this.sealing = { id: keyId(keys[0]), key: keys[0] };
    this.opening = new Map(keys.map((key) => [keyId(key), key]));
  }

  /** The box of the built-in development key (never for a deployment: the key is public). */
  static development(): SecretBox {
    return new SecretBox([DEVELOPMENT_KEY]);
  }

  seal(secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealing.key, iv);
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    const packed = Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
    return `${SEALED_PREFIX}${this.sealing.id}:${packed}`;
  }

  open(stored: string): string {
    if (!isSealed(stored)) return stored;
    const [id, packed] = stored.slice(SEALED_PREFIX.length).split(':');
    const key = this.opening.get(id ?? '');
    if (!key) throw new SecretBoxError(`the signing secret was sealed with key ${id}, which is not among the configured WEBHOOK_SECRET_KEY keys`);
    const bytes = Buffer.from(packed ?? '', 'base64');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('the sealed signing secret is truncated');
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError(`the sealed signing secret does not verify under key ${id} (altered or sealed with another key)`);
    }
  }

  /** True when the value is sealed with the current key; false for clear values and older keys. */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${SEALED_PREFIX}${this.sealing.id}:`);
  }
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX);
}

export interface SecretBoxConfig {
  NODE_ENV: 'development' | 'test' | 'production';
  WEBHOOK_SECRET_KEY?: Buffer[];
}

/**
 * The box a process seals and opens signing secrets with: the configured keys, or, outside production,
 * the development key with a warning. In production a missing key stops the start: secrets sealed with
 * a public key are not protected, and secrets sealed with a random one could never be opened again.
 */
export function secretBoxFromConfig(config: SecretBoxConfig, warn: (message: string) => void): SecretBox {
  if (config.WEBHOOK_SECRET_KEY?.length) return new SecretBox(config.WEBHOOK_SECRET_KEY);
  if (config.NODE_ENV === 'production') {
    throw new ConfigError(['WEBHOOK_SECRET_KEY is required in production: 32 random bytes in base64 or hex (openssl rand -base64 32)']);
  }
  warn('WEBHOOK_SECRET_KEY is not set: monitor signing secrets are sealed with the public development key; set it in any deployment');
  return SecretBox.development();
}
