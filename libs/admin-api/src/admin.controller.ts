import { Body, Controller, Get, HttpCode, Inject, Param, ParseUUIDPipe, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '@bhis/config';
import { baseUrl, CONFIG, DATA_SOURCE, platformState, RequireScope } from '@bhis/api-platform';
import { poolGetter } from '@bhis/db';
import { API_BASE_PATH, ApiError, apiPath, successEnvelope } from '@bhis/envelope';
import type { IngestInput } from '@bhis/queue';
import { checkWebhookTarget } from '@bhis/webhooks';
import { AdminQueues } from './admin-queues';
import { TriggerIngestDto, TriggerScoringDto } from './admin.dto';
import { enqueueBackfill, enqueueIngest, enqueueScoring, getRun, getScoringRun, IngestRequestError } from '@bhis/runs';

const uuid = new ParseUUIDPipe({ exceptionFactory: () => new ApiError('invalid_request', 'The run id must be a UUID.') });

/** Operator endpoints (scope `admin`): trigger and watch ingest and scoring runs. */
@ApiTags('admin')
@ApiBearerAuth()
@RequireScope('admin')
@Controller(apiPath('/admin'))
export class AdminController {
  private readonly pool;

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(DATA_SOURCE) dataSource: DataSource,
    private readonly queues: AdminQueues,
  ) {
    this.pool = poolGetter(dataSource);
  }

  /**
   * A download URL must be on one of INGEST_URL_HOSTS and resolve only to public addresses (the
   * webhook address policy: no loopback, private, link-local or reserved targets).
   */
  private async checkUrl(raw: string): Promise<string> {
    const hosts = this.config.INGEST_URL_HOSTS.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
    let host: string;
    try {
      host = new URL(raw).hostname.toLowerCase();
    } catch {
      throw new ApiError('invalid_request', '"url" is not a valid absolute URL.');
    }
    if (!hosts.includes(host)) throw new ApiError('invalid_request', `"url" must be on one of the configured source hosts (${hosts.join(', ')}).`);
    const check = await checkWebhookTarget(raw, { allowLoopback: false });
    if (!check.ok) throw new ApiError('invalid_request', `"url" ${check.problem.replace('webhooks may only', 'downloads may only')}.`);
    return check.target.url.toString();
  }

  private async input(body: TriggerIngestDto): Promise<IngestInput> {
    const given = [body.url, body.file, body.download].filter((v) => v !== undefined && v !== false).length;
    if (given !== 1) throw new ApiError('invalid_request', 'Give exactly one of "url", "file" or "download": true.');
    if (body.url) return { kind: 'url', url: await this.checkUrl(body.url) };
    if (body.file) {
      const root = path.resolve(this.config.DATA_DIR);
      const file = path.resolve(root, body.file);
      if (!file.startsWith(`${root}${path.sep}`)) throw new ApiError('invalid_request', '"file" must be a path inside the server\'s data directory.');
      return { kind: 'file', path: file };
    }
    return { kind: 'download' };
  }

  @ApiOperation({ summary: 'Queue an ingest run of one source' })
  @Post('ingest')
  @HttpCode(202)
  async triggerIngest(@Req() req: Request, @Body() body: TriggerIngestDto) {
    try {
      const queued = await enqueueIngest(this.queues.get('ingest'), this.pool(), {
        source: body.source,
        input: await this.input(body),
        trigger: 'admin_api',
        force: body.force,
        scoreAfter: body.score,
      });
      const self = `${baseUrl(req, this.config.PUBLIC_BASE_URL)}${API_BASE_PATH}/admin/ingest/${queued.runId}`;
      return successEnvelope(platformState(req), { run_id: queued.runId, job_id: queued.jobId, created: queued.created }, { links: { self } });
    } catch (error) {
      if (error instanceof IngestRequestError) throw new ApiError('invalid_request', error.message);
      throw error;
    }
  }

  @ApiOperation({ summary: 'Progress and counts of an ingest run' })
  @Get('ingest/:id')
  async ingestRun(@Req() req: Request, @Param('id', uuid) id: string) {
    const run = await getRun(this.pool(), id);
    if (!run) throw new ApiError('not_found', `No ingest run ${id}.`);
    return successEnvelope(platformState(req), run);
  }

  @ApiOperation({ summary: 'Queue a scoring run (incremental, full, selected BBLs, or a history backfill)' })
  @Post('score')
  @HttpCode(202)
  async triggerScoring(@Req() req: Request, @Body() body: TriggerScoringDto) {
    const queue = this.queues.get('scoring');
    const queued = body.backfill_months
      ? await enqueueBackfill(queue, this.pool(), { months: body.backfill_months, asOf: body.as_of, trigger: 'admin_api' })
      : await enqueueScoring(queue, this.pool(), { kind: body.full ? 'full' : 'incremental', bbls: body.bbls, asOf: body.as_of, trigger: 'admin_api' });
    const self = `${baseUrl(req, this.config.PUBLIC_BASE_URL)}${API_BASE_PATH}/admin/score/${queued.runId}`;
    return successEnvelope(platformState(req), { run_id: queued.runId, job_id: queued.jobId }, { links: { self } });
  }

  @ApiOperation({ summary: 'Progress and counts of a scoring run' })
  @Get('score/:id')
  async scoringRun(@Req() req: Request, @Param('id', uuid) id: string) {
    const run = await getScoringRun(this.pool(), id);
    if (!run) throw new ApiError('not_found', `No scoring run ${id}.`);
    return successEnvelope(platformState(req), run);
  }
}
