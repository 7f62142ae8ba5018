import { once } from 'node:events';
import { Controller, Get, Inject, Injectable, Req, Res } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorFunction, HealthIndicatorService } from '@nestjs/terminus';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { ReadReplicas } from '@bhis/db';
import { ApiError, apiPath, successEnvelope } from '@bhis/envelope';
import { Public } from './decorators';
import { sendError } from './errors';
import { platformState } from './request-context';
import { DATA_SOURCE, REDIS } from './tokens';

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

@Injectable()
export class BackingServiceIndicators {
  constructor(
    private readonly indicators: HealthIndicatorService,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redisClient: Redis,
    readonly readReplicas: ReadReplicas,
  ) {}

  private async probe(key: 'postgres' | 'redis', ping: () => Promise<unknown>) {
    const session = this.indicators.check(key);
    const started = Date.now();
    try {
      await withTimeout(ping(), key);
      return session.up({ latency_ms: Date.now() - started });
    } catch {
      return session.down({ latency_ms: Date.now() - started, message: `${key} is unreachable` });
    }
  }

  postgres = () => this.probe('postgres', () => this.dataSource.query('SELECT 1'));
  redis = () =>
    this.probe('redis', async () => {
      // a connection still being (re)established is not a failure yet: wait for it within the timeout
      if (this.redisClient.status !== 'ready') await once(this.redisClient, 'ready');
      return this.redisClient.ping();
    });
  /**
   * Streaming replicas (when DATABASE_READ_URL is set): whether reads go to them and, `detailed`, their
   * names (host:port/database) and lag. Never down: without a usable replica the primary serves the reads.
   */
  replicas = async (detailed: boolean) => {
    await withTimeout(this.readReplicas.probe(), 'replicas').catch(() => undefined);
    const states = this.readReplicas.state();
    const replicas = detailed ? states : states.map(({ status, in_use }) => ({ status, in_use }));
    return this.indicators.check('postgres_replicas').up({ reads_from: states.some((r) => r.in_use) ? 'replicas' : 'primary', replicas });
  };
}

/** Whether the request's key may see the replicas' addresses and lag. */
function seesReplicaDetails(req: Request): boolean {
  const auth = platformState(req).auth;
  return auth.state === 'valid' && (auth.key.scopes.includes('metrics:read') || auth.key.scopes.includes('admin'));
}

type CheckState = Record<string, { status: string; latency_ms?: number; message?: string; reads_from?: string; replicas?: unknown[] }>;

@ApiExcludeController()
@Controller(apiPath('/health'))
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: BackingServiceIndicators,
  ) {}

  /**
   * 200 with the state of Postgres and Redis, or 503 `service_unavailable` when one is down. Replica
   * addresses and lag only go to a key that may read the metrics (or an admin key): the check answers
   * without a key.
   */
  @Public()
  @Get()
  async check(@Req() req: Request, @Res() res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    try {
      const checks: HealthIndicatorFunction[] = [this.indicators.postgres, this.indicators.redis];
      if (this.indicators.readReplicas.configured) checks.push(() => this.indicators.replicas(seesReplicaDetails(req)));
      const result = await this.health.check(checks);
      res.json(successEnvelope(platformState(req), { status: 'ok', checks: result.details as CheckState }));
    } catch (error) {
      const details = ((error as { getResponse?: () => { details?: CheckState } }).getResponse?.().details ?? {}) as CheckState;
      const down = Object.entries(details).filter(([, v]) => v.status !== 'up').map(([k]) => k);
      sendError(
        req,
        res,
        new ApiError('service_unavailable', `Unavailable: ${down.join(', ') || 'a backing service'}.`, {
          details: { status: 'unavailable', checks: details },
        }),
      );
    }
  }
}
