import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '@bhis/config';
import { CONFIG, DATA_SOURCE } from '@bhis/api-platform';
import { poolGetter } from '@bhis/db';
import { ApiError } from '@bhis/envelope';
import {
  checkWebhookTarget,
  createMonitor,
  createTestDelivery,
  DEFAULT_RETRY_POLICY,
  deleteMonitor,
  enqueueDelivery,
  findMonitor,
  listDeliveries,
  listMonitors,
  ListPosition,
  maxAttempts,
  monitorBbls,
  MonitorLimitError,
  MonitorRecord,
  SecretBox,
  secretBoxFromConfig,
} from '@bhis/webhooks';
import { partitionBbls, requireAllValid } from '../bbl-list';
import type { CreateMonitorDto } from './monitor.dto';
import { MonitorWriteLimits } from './monitor-write-limits';
import { WebhookQueue } from './webhook-queue';

/**
 * Units a test delivery costs: the most signed requests it can make (the first attempt and every retry,
 * libs/webhooks/src/retry-schedule.ts), as a real event's delivery would.
 */
export const TEST_DELIVERY_UNITS = maxAttempts(DEFAULT_RETRY_POLICY);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Monitor operations on behalf of one API key: a key only ever sees its own monitors. */
@Injectable()
export class MonitorService {
  private readonly logger = new Logger(MonitorService.name);
  private readonly pool: ReturnType<typeof poolGetter>;
  private readonly secrets: SecretBox;

  constructor(
    @Inject(DATA_SOURCE) dataSource: DataSource,
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly queue: WebhookQueue,
    private readonly writeLimits: MonitorWriteLimits,
  ) {
    this.pool = poolGetter(dataSource);
    this.secrets = secretBoxFromConfig(config, (m) => this.logger.warn(m));
  }

  async create(apiKeyId: string, body: CreateMonitorDto): Promise<{ monitor: MonitorRecord; bbls: string[]; secret: string }> {
    const name = body.name.trim();
    if (!name) throw new ApiError('invalid_request', '"name" must not be blank.');
    const bbls = requireAllValid(partitionBbls(body.bbls));
    const check = await checkWebhookTarget(body.webhook_url.trim(), { allowLoopback: this.config.WEBHOOK_ALLOW_LOOPBACK });
    if (!check.ok) throw new ApiError('invalid_request', `"webhook_url" ${check.problem}.`);
    const grades = body.grades ? [...new Set(body.grades)].sort() : null;
    await this.writeLimits.countCreation(apiKeyId);
    const { monitor, secret } = await createMonitor(this.pool(), {
      apiKeyId,
      name,
      webhookUrl: check.target.url.toString(),
      grades,
      includeUncertain: body.include_uncertain ?? false,
      bbls,
    }, this.secrets).catch((error: unknown) => {
      if (error instanceof MonitorLimitError) throw new ApiError('invalid_request', error.message, { details: { limit: error.limit } });
      throw error;
    });
    return { monitor, bbls: [...bbls].sort(), secret };
  }

  list(apiKeyId: string, limit: number, after: ListPosition | null) {
    return listMonitors(this.pool(), apiKeyId, limit, after);
  }

  /** The key's monitor, or 400 for a malformed id and 404 for any other key's or an unknown one. */
  async get(apiKeyId: string, id: string): Promise<MonitorRecord> {
    if (!UUID.test(id)) throw new ApiError('invalid_request', `The monitor id "${id.slice(0, 40)}" is not a valid id.`);
    const monitor = await findMonitor(this.pool(), apiKeyId, id.toLowerCase());
    if (!monitor) throw new ApiError('not_found', `Monitor ${id} does not exist.`);
    return monitor;
  }

  /** One page of the monitor's BBLs in order; `limit + 1` are read so the caller knows whether more follow. */
  bbls(id: string, after: string | null, limit: number): Promise<string[]> {
    return monitorBbls(this.pool(), id, after, limit + 1);
  }

  /** Deletes the key's monitor once `charge` has taken the units its BBLs cost (`units` is given the BBL count). */
  async remove(apiKeyId: string, id: string, charge: (bblCount: number) => Promise<void>): Promise<void> {
    const monitor = await this.get(apiKeyId, id);
    await charge(monitor.bblCount);
    if (!(await deleteMonitor(this.pool(), apiKeyId, monitor.id))) throw new ApiError('not_found', `Monitor ${id} does not exist.`);
  }

  /** Queues a signed monitor.test event through the outbox (the worker sends it like any other event). */
  async sendTest(apiKeyId: string, id: string, charge: (units: number) => Promise<void>) {
    const monitor = await this.get(apiKeyId, id);
    if (monitor.status !== 'active') {
      throw new ApiError('invalid_request', `Monitor ${id} is disabled (${monitor.disabledReason ?? 'disabled'}); create a new monitor.`);
    }
    await this.writeLimits.countTestDelivery(monitor.id);
    await charge(TEST_DELIVERY_UNITS);
    const delivery = await createTestDelivery(this.pool(), monitor.id);
    // when Redis is unavailable the delivery worker's outbox sweep picks the delivery up
    await enqueueDelivery(this.queue.get(), delivery.id, 1).catch((error: Error) =>
      this.logger.warn(`test delivery ${delivery.id} not queued (the outbox sweep will send it): ${error.message}`),
    );
    return delivery;
  }

  async deliveries(apiKeyId: string, id: string, limit: number, after: ListPosition | null) {
    const monitor = await this.get(apiKeyId, id);
    return listDeliveries(this.pool(), monitor.id, limit, after);
  }
}
