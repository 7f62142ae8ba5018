import { randomBytes } from 'node:crypto';
import { Test, type TestingModule } from '@nestjs/testing';
import { Pool } from 'pg';
import { parseConfig } from '@bhis/config';
import { createApiKey, createDataSource } from '@bhis/db';
import { createTestDatabase, TestDatabase, testRedisPrefix } from '@bhis/testing';
import { createMonitor, SecretBox, WebhookWorkerModule } from '@bhis/webhooks';
import { WorkerPlatformModule } from '@bhis/worker-platform';

/**
 * The webhook delivery worker as apps/scoring hosts it, on a test database and Redis prefix, its secret
 * box replaced through the Nest testing module by one with a new key first and the old one after: at
 * start the worker seals the stored signing secrets with the new key, and each still opens to itself.
 */
describe('the webhook delivery worker', () => {
  let db: TestDatabase;
  let pool: Pool;
  let app: TestingModule | undefined;
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 2 });
  });

  afterAll(async () => {
    await app?.close();
    await pool?.end();
    await db?.drop();
  });

  it('seals the stored signing secrets with the first key of the box it was given', async () => {
    const ds = await createDataSource({ url: db.url }).initialize();
    const apiKeyId = (await createApiKey(ds, { name: 'monitor owner', kind: 'live' })).record.id;
    await ds.destroy();
    const { monitor, secret } = await createMonitor(pool, { apiKeyId, name: 'rotating', webhookUrl: 'https://example.org/hook', grades: null, bbls: [], includeUncertain: false }, new SecretBox([oldKey]));
    const config = parseConfig({ DATABASE_URL: db.url, REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: testRedisPrefix(), LOG_LEVEL: 'silent', WORKER_LOCK_MS: '5000' });
    const box = new SecretBox([newKey, oldKey]);
    app = await Test.createTestingModule({ imports: [WorkerPlatformModule.forRoot(config, 'bhis-webhooks-test'), WebhookWorkerModule] })
      .overrideProvider(SecretBox)
      .useValue(box)
      .compile();
    await app.init();
    const { rows } = await pool.query<{ stored: string }>(`SELECT signing_secret AS stored FROM monitors WHERE id = $1`, [monitor.id]);
    expect(box.isCurrent(rows[0].stored)).toBe(true);
    expect(new SecretBox([oldKey]).isCurrent(rows[0].stored)).toBe(false);
    expect(box.open(rows[0].stored)).toBe(secret);
  });
});
