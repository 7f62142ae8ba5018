/**
 * A webhook delivery worker in its own process, for tests that kill it (SIGKILL) mid-delivery.
 * Settings come as JSON in WEBHOOK_WORKER_SETTINGS; prints "ready" once the worker runs.
 */
import 'reflect-metadata';
import { Pool } from 'pg';
import { workerConnection } from '@bhis/queue';
import { SecretBox } from '../secret-box';
import { WebhookWorker } from '../webhook-worker';
import type { TestWorkerSettings } from './delivery-harness';

const settings = JSON.parse(process.env.WEBHOOK_WORKER_SETTINGS ?? '{}') as TestWorkerSettings;
const pool = new Pool({ connectionString: settings.databaseUrl, max: 4 });
const worker = new WebhookWorker({
  pool: () => pool,
  connection: workerConnection(settings.redisUrl),
  prefix: settings.prefix,
  allowLoopback: true,
  secrets: new SecretBox([Buffer.from(settings.secretKeyHex, 'hex')]),
  timeoutMs: settings.timeoutMs,
  lockMs: settings.lockMs,
  retry: { delaysMs: settings.retryDelaysMs, jitter: 0 },
  sweepIntervalMs: settings.sweepIntervalMs,
  workerOptions: settings.workerOptions,
});
void worker.start().then(() => process.stdout.write('ready\n'));
