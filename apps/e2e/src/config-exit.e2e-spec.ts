import { once } from 'node:events';
import { createTestDatabase, NodeProcess, TestDatabase, testRedisPrefix } from '@bhis/testing';

/**
 * A setting that only a provider checks (the signing-secret key of monitors, required in production)
 * stops a built app as a bad variable does at parse time: one line naming it and exit code 78 (EX_CONFIG),
 * no stack trace.
 */
describe('a configuration problem found while an app is built', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it.each(['api', 'scoring'] as const)('%s exits 78 with one line when WEBHOOK_SECRET_KEY is missing in production', async (app) => {
    const child = NodeProcess.app(app, {
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      WEBHOOK_SECRET_KEY: '',
      CURSOR_SECRET: 'a cursor secret of this test, long enough to be accepted',
      REDIS_PREFIX: testRedisPrefix(),
      PORT: '0',
    });
    // an empty value is unset for the child: the config parser treats it as missing
    const [code] = (await once(child.child, 'exit')) as [number | null];
    expect(child.output).toContain('WEBHOOK_SECRET_KEY is required in production');
    expect(child.output).not.toMatch(/\n\s+at /);
    expect(code).toBe(78);
  });
});
