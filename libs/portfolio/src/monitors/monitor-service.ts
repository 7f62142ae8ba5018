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
  MonitorChanges,
  MonitorRecord,
  rotateSigningSecret,
  SecretBox,
  secretBoxFromConfig,
  updateMonitor,
} from '@bhis/webhooks';
import { partitionBbls, requireAllValid } from '../bbl-list';
import { portfolioBbls, requireOneTarget } from '../portfolio-members';
import type { CreateMonitorDto, UpdateMonitorDto } from './monitor.dto';
import { MonitorWriteLimits } from './monitor-write-limits';
import { WebhookQueue } from './webhook-queue';

/**
 * Units a test delivery costs: the most signed requests it can make (the first attempt and every retry,
 * libs/webhooks/src/retry-schedule.ts), as a real event's delivery would.
 */
export const TEST_DELIVERY_UNITS = maxAttempts(DEFAULT_RETRY_POLICY);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function validName(raw: string): string {
  const name = raw.trim();
  if (!name) throw new ApiError('invalid_request', '"name" must not be blank.');
  return name;
}

function distinctGrades(grades: readonly string[]): string[] {
  return [...new Set(grades)].sort();
}

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

  /**
   * Creates a monitor of the BBLs sent or of a portfolio's buildings; `chargePortfolio` takes the units
   * a portfolio's buildings cost (a body with `portfolio_id` names none for the pipeline to price).
   */
  async create(
    apiKeyId: string,
    body: CreateMonitorDto,
    chargePortfolio: (bblCount: number) => Promise<void>,
  ): Promise<{ monitor: MonitorRecord; bbls: string[]; secret: string }> {
    requireOneTarget(body);
    const name = validName(body.name);
    const portfolioId = body.portfolio_id ?? null;
    const bbls = portfolioId === null ? requireAllValid(partitionBbls(body.bbls ?? [])) : await portfolioBbls(this.pool(), portfolioId);
    if (portfolioId !== null) await chargePortfolio(bbls.length);
    const webhookUrl = await this.checkedUrl(body.webhook_url);
    const grades = body.grades ? distinctGrades(body.grades) : null;
    await this.writeLimits.countCreation(apiKeyId);
    const { monitor, secret } = await createMonitor(this.pool(), {
      apiKeyId,
      name,
      webhookUrl,
      grades,
      includeUncertain: body.include_uncertain ?? false,
      bbls,
      portfolioId,
    }, this.secrets).catch((error: unknown) => {
      if (error instanceof MonitorLimitError) throw new ApiError('invalid_request', error.message, { details: { limit: error.limit } });
      throw error;
    });
    return { monitor, bbls: [...bbls].sort(), secret };
  }

  /** The URL as stored once it passed the address policy (https only, but to loopback when allowed). */
  private async checkedUrl(raw: string): Promise<string> {
    const check = await checkWebhookTarget(raw.trim(), { allowLoopback: this.config.WEBHOOK_ALLOW_LOOPBACK, httpsOnly: true });
    if (!check.ok) throw new ApiError('invalid_request', `"webhook_url" ${check.problem}.`);
    return check.target.url.toString();
  }

  /**
   * Changes the key's monitor, each field validated as at creation; `charge` takes the units the new BBL
   * list costs before anything is written. 404 for any other key's monitor.
   */
  async update(apiKeyId: string, id: string, body: UpdateMonitorDto, chargePortfolio: (bblCount: number) => Promise<void>): Promise<MonitorRecord> {
    const fields = Object.keys(body).filter((k) => (body as Record<string, unknown>)[k] !== undefined);
    if (fields.length === 0) throw new ApiError('invalid_request', 'Send at least one of name, bbls, portfolio_id, webhook_url, grades, include_uncertain, enabled.');
    if (body.bbls !== undefined && body.portfolio_id !== undefined) throw new ApiError('invalid_request', 'Send either "bbls" or "portfolio_id", not both.');
    const current = await this.get(apiKeyId, id);
    const changes: MonitorChanges = {};
    if (body.name !== undefined) changes.name = validName(body.name);
    if (body.bbls !== undefined) changes.bbls = requireAllValid(partitionBbls(body.bbls));
    if (body.portfolio_id !== undefined) {
      changes.bbls = await portfolioBbls(this.pool(), body.portfolio_id);
      changes.portfolioId = body.portfolio_id;
      await chargePortfolio(changes.bbls.length);
    }
    if (body.webhook_url !== undefined) changes.webhookUrl = await this.checkedUrl(body.webhook_url);
    if (body.grades !== undefined) changes.grades = body.grades === null ? null : distinctGrades(body.grades);
    if (body.include_uncertain !== undefined) changes.includeUncertain = body.include_uncertain;
    if (body.enabled !== undefined) changes.enabled = body.enabled;
    const updated = await updateMonitor(this.pool(), apiKeyId, current.id, changes);
    if (!updated) throw new ApiError('not_found', `Monitor ${id} does not exist.`);
    return updated;
  }

  /** A new signing secret for the key's monitor; the replaced one keeps signing for `overlapSeconds`. */
  async rotateSecret(apiKeyId: string, id: string, overlapSeconds: number): Promise<{ monitor: MonitorRecord; secret: string }> {
    const current = await this.get(apiKeyId, id);
    const rotated = await rotateSigningSecret(this.pool(), apiKeyId, current.id, overlapSeconds, this.secrets);
    if (!rotated) throw new ApiError('not_found', `Monitor ${id} does not exist.`);
    return rotated;
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
