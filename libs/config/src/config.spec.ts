import { ConfigError, parseConfig } from './config';

describe('parseConfig', () => {
  it('defaults to the local services', () => {
    const config = parseConfig({});
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/bhis');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.PORT).toBe(3000);
    expect(config.RATE_LIMIT_LIVE_PER_MIN).toBe(6000);
    expect(config.RATE_LIMIT_DEMO_PER_MIN).toBe(60);
    expect(config.WEBHOOK_ALLOW_LOOPBACK).toBe(false);
    expect(config.SOCRATA_ALLOW_PRIVATE_HOST).toBe(false);
    expect(config.INGEST_ENFORCE_MINIMUM_ROWS).toBe(true);
  });

  it('reads the settings of a Socrata mirror', () => {
    const mirror = parseConfig({ SOCRATA_BASE_URL: 'http://10.1.2.3:8080', SOCRATA_ALLOW_PRIVATE_HOST: 'true', INGEST_ENFORCE_MINIMUM_ROWS: 'false' });
    expect(mirror).toMatchObject({ SOCRATA_ALLOW_PRIVATE_HOST: true, INGEST_ENFORCE_MINIMUM_ROWS: false });
    expect(() => parseConfig({ SOCRATA_ALLOW_PRIVATE_HOST: 'sometimes' })).toThrow(/SOCRATA_ALLOW_PRIVATE_HOST/);
  });

  it('takes a map tile server only as an https template with {z}, {x} and {y}, and none by default', () => {
    expect(parseConfig({}).WEB_MAP_TILE_URL).toBeUndefined();
    expect(parseConfig({ WEB_MAP_TILE_URL: 'https://tiles.example.org/{z}/{x}/{y}.png' }).WEB_MAP_TILE_URL).toBe('https://tiles.example.org/{z}/{x}/{y}.png');
    expect(() => parseConfig({ WEB_MAP_TILE_URL: 'http://tiles.example.org/{z}/{x}/{y}.png' })).toThrow(/WEB_MAP_TILE_URL/);
    expect(() => parseConfig({ WEB_MAP_TILE_URL: 'https://tiles.example.org/tile.png' })).toThrow(/WEB_MAP_TILE_URL/);
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      parseConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x/y', REDIS_URL: 'nope', WEBHOOK_ALLOW_LOOPBACK: 'maybe' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain('PORT');
    expect(problems).toContain('DATABASE_URL');
    expect(problems).toContain('REDIS_URL');
    expect(problems).toContain('WEBHOOK_ALLOW_LOOPBACK');
  });

  it('reads a comma-separated list of read replicas, none by default', () => {
    expect(parseConfig({}).DATABASE_READ_URL).toEqual([]);
    expect(parseConfig({ DATABASE_READ_URL: ' postgres://r1:5432/bhis , postgresql://r2/bhis,' }).DATABASE_READ_URL).toEqual([
      'postgres://r1:5432/bhis',
      'postgresql://r2/bhis',
    ]);
    expect(() => parseConfig({ DATABASE_READ_URL: 'postgres://r1/bhis,mysql://r2/bhis' })).toThrow(/DATABASE_READ_URL/);
  });

  it('requires TLS_CERT and TLS_KEY together', () => {
    expect(() => parseConfig({ TLS_CERT: '/tmp/cert.pem' })).toThrow(/TLS_CERT and TLS_KEY/);
  });

  it('never echoes secrets in its messages', () => {
    expect(() => parseConfig({ CURSOR_SECRET: 'sk_live_secret' })).toThrow(/CURSOR_SECRET/);
    try {
      parseConfig({ CURSOR_SECRET: 'sk_live_secret' });
    } catch (e) {
      expect((e as Error).message).not.toContain('sk_live_secret');
    }
  });

  it('requires CURSOR_SECRET to have at least 32 characters when set', () => {
    expect(() => parseConfig({ CURSOR_SECRET: 'x'.repeat(20) })).toThrow(/CURSOR_SECRET: must be at least 32 characters/);
    expect(parseConfig({ CURSOR_SECRET: 'x'.repeat(32) }).CURSOR_SECRET).toBe('x'.repeat(32));
    expect(parseConfig({}).CURSOR_SECRET).toBeUndefined();
  });

  it('parses WEBHOOK_SECRET_KEY as 32-byte keys in hex or base64, a comma list to rotate', () => {
    const hex = 'ab'.repeat(32);
    const base64 = Buffer.alloc(32, 7).toString('base64');
    expect(parseConfig({ WEBHOOK_SECRET_KEY: hex }).WEBHOOK_SECRET_KEY).toEqual([Buffer.alloc(32, 0xab)]);
    expect(parseConfig({ WEBHOOK_SECRET_KEY: `${base64}, ${hex}` }).WEBHOOK_SECRET_KEY).toEqual([Buffer.alloc(32, 7), Buffer.alloc(32, 0xab)]);
    expect(parseConfig({}).WEBHOOK_SECRET_KEY).toBeUndefined();
    for (const bad of ['ab'.repeat(31), Buffer.alloc(16).toString('base64'), 'not-a-key-hunter5', `${hex},`]) {
      expect(() => parseConfig({ WEBHOOK_SECRET_KEY: bad })).toThrow(/WEBHOOK_SECRET_KEY: must be 32 random bytes/);
      try {
        parseConfig({ WEBHOOK_SECRET_KEY: bad });
      } catch (e) {
        expect((e as Error).message).not.toMatch(/hunter|abab/);
      }
    }
  });

  it('never shows database, Redis or secret values in its messages', () => {
    const env = { DATABASE_URL: 'mysql://user:hunter2@db/x', REDIS_URL: 'http://:hunter3@r', CURSOR_SECRET: 'short-hunter4' };
    expect(() => parseConfig(env)).toThrow(/DATABASE_URL[\s\S]*REDIS_URL[\s\S]*CURSOR_SECRET/);
    try {
      parseConfig(env);
    } catch (e) {
      expect((e as Error).message).not.toMatch(/hunter/);
    }
  });

  it('parses TRUST_PROXY strictly', () => {
    expect(parseConfig({ TRUST_PROXY: 'loopback' }).TRUST_PROXY).toEqual(['loopback']);
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8, ::1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '::1']);
    expect(parseConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    for (const bad of ['true', '*', 'yes', '0', '11', 'loopback,evil', '999.1.1.1', '10.0.0.0/8;x']) {
      expect(() => parseConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });

  it('reads CORS_ORIGINS as origins exactly as browsers send them, none by default', () => {
    expect(parseConfig({}).CORS_ORIGINS).toEqual([]);
    expect(parseConfig({ CORS_ORIGINS: 'https://app.example.org, http://localhost:5173' }).CORS_ORIGINS).toEqual(['https://app.example.org', 'http://localhost:5173']);
    expect(parseConfig({ CORS_ORIGINS: '*' }).CORS_ORIGINS).toEqual(['*']);
    // a browser never sends these: a path, a trailing slash, upper case, a default port, another scheme, a mixed wildcard
    for (const bad of ['https://app.example.org/', 'https://app.example.org/path', 'https://App.example.org', 'https://app.example.org:443', 'ftp://files.example.org', 'app.example.org', '*, https://a.example', 'null', ',']) {
      expect(() => parseConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS: must be \* or a comma list of origins/);
    }
  });
});
