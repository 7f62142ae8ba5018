import { randomBytes } from 'node:crypto';
import { SecretBox, SecretBoxError, secretBoxFromConfig } from './secret-box';
import { generateSigningSecret } from './signing';

describe('SecretBox', () => {
  const key = randomBytes(32);
  const box = new SecretBox([key]);

  it('seals a secret so that the stored value shows nothing of it, and opens it again', () => {
    const secret = generateSigningSecret();
    const sealed = box.seal(secret);
    expect(sealed).toMatch(/^enc:v1:[0-9a-f]{8}:[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(box.open(sealed)).toBe(secret);
    expect(box.seal(secret)).not.toBe(sealed); // a fresh IV each time
    expect(box.isCurrent(sealed)).toBe(true);
  });

  it('refuses an altered value or another key, naming the key id only', () => {
    const sealed = box.seal('whsec_secret');
    const bytes = Buffer.from(sealed.split(':')[3], 'base64');
    bytes[bytes.length - 1] ^= 1;
    const altered = `${sealed.split(':').slice(0, 3).join(':')}:${bytes.toString('base64')}`;
    expect(() => box.open(altered)).toThrow(/does not verify/);
    expect(() => new SecretBox([randomBytes(32)]).open(sealed)).toThrow(SecretBoxError);
    expect(() => new SecretBox([randomBytes(32)]).open(sealed)).toThrow(/not among the configured WEBHOOK_SECRET_KEY keys/);
    expect(() => box.open('enc:v1:')).toThrow(SecretBoxError);
  });

  it('rotates: the first key seals, every key opens', () => {
    const next = randomBytes(32);
    const rotated = new SecretBox([next, key]);
    const old = box.seal('whsec_old');
    expect(rotated.open(old)).toBe('whsec_old');
    expect(rotated.isCurrent(old)).toBe(false);
    expect(rotated.isCurrent(rotated.seal('whsec_new'))).toBe(true);
    expect(new SecretBox([next]).open(rotated.seal('whsec_new'))).toBe('whsec_new');
  });

  it('passes a secret stored before encryption through unchanged', () => {
    expect(box.open('whsec_clear')).toBe('whsec_clear');
    expect(box.isCurrent('whsec_clear')).toBe(false);
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => new SecretBox([randomBytes(16)])).toThrow(/32 bytes/);
    expect(() => new SecretBox([])).toThrow(SecretBoxError);
  });

  it('requires a key in production and warns about the development key elsewhere', () => {
    expect(() => secretBoxFromConfig({ NODE_ENV: 'production' }, () => undefined)).toThrow(/WEBHOOK_SECRET_KEY is required in production/);
    const warnings: string[] = [];
    const development = secretBoxFromConfig({ NODE_ENV: 'development' }, (m) => warnings.push(m));
    expect(warnings).toEqual([expect.stringMatching(/WEBHOOK_SECRET_KEY is not set/)]);
    expect(development.open(SecretBox.development().seal('whsec_x'))).toBe('whsec_x');
    const configured = secretBoxFromConfig({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: [key] }, () => undefined);
    expect(configured.open(box.seal('whsec_y'))).toBe('whsec_y');
  });
});
