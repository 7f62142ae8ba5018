import { Body, Controller, Get, HttpCode, Inject, Param, ParseUUIDPipe, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '@bhis/config';
import { ApiEnvelopeResponse, ApiErrorResponses, baseUrl, CONFIG, DATA_SOURCE, platformState, RequireScope, Idempotent } from '@bhis/api-platform';
import { poolGetter } from '@bhis/db';
import { API_BASE_PATH, ApiError, apiPath, successEnvelope } from '@bhis/envelope';
import type { IngestInput } from '@bhis/queue';
import { checkWebhookTarget } from '@bhis/webhooks';
import { AdminQueues } from './admin-queues';
import { CancelledRunDto, IngestRunDto, IngestRunListDto, QueuedRunDto, RejectedRowListDto, ScoringRunDto } from './admin-responses.dto';
import { ListRunsQuery, RejectedRowsQuery, TriggerIngestDto, TriggerScoringDto } from './admin.dto';
import { decodeRunCursor, encodeRunCursor } from './run-cursor';
import {
  enqueueBackfill,
  enqueueIngest,
  enqueueScoring,
  getRun,
  getScoringRun,
  IngestRequestError,
  listRuns,
  rejectedRows,
  requestCancel,
  type RunStatus,
} from '@bhis/runs';

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
    const complete = body.complete === true;
    if (body.url) return { kind: 'url', url: await this.checkUrl(body.url), complete };
    if (body.file) {
      const root = path.resolve(this.config.DATA_DIR);
      const file = path.resolve(root, body.file);
      if (!file.startsWith(`${root}${path.sep}`)) throw new ApiError('invalid_request', '"file" must be a path inside the server\'s data directory.');
      return { kind: 'file', path: file, complete };
    }
    if (complete) throw new ApiError('invalid_request', '"complete" goes with "url" or "file": a download knows by itself what it brings.');
    return { kind: 'download' };
  }

  private runUrl(req: Request, id: string, tail = ''): string {
    return `${baseUrl(req, this.config.PUBLIC_BASE_URL)}${API_BASE_PATH}/admin/ingest/${id}${tail}`;
  }

  @ApiOperation({ summary: 'Ingest runs, newest first, by source and status' })
  @ApiEnvelopeResponse(IngestRunListDto, { description: 'One page of runs (without the data set metadata each was read with: see the run itself).', paginated: true })
  @ApiErrorResponses('invalid_request')
  @Get('ingest')
  async listIngestRuns(@Req() req: Request, @Query() query: ListRunsQuery) {
    const limit = query.limit ?? 25;
    const filters = `${query.source ?? ''}|${query.status ?? ''}`;
    const before = query.cursor === undefined ? undefined : decodeRunCursor(query.cursor, filters);
    const rows = await listRuns(this.pool(), { source: query.source, status: query.status as RunStatus | undefined, limit: limit + 1, before });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor = rows.length > limit && last ? encodeRunCursor(last, filters) : null;
    const runs = page.map((run) => ({ ...run, _links: { self: this.runUrl(req, run.id) } }));
    // `_links.next` and the Link header come from the one response path (pagination-links.ts), as on every paginated list
    return successEnvelope(platformState(req), { runs }, { pagination: { limit, has_more: nextCursor !== null, next_cursor: nextCursor } });
  }

  @ApiOperation({ summary: 'Queue an ingest run of one source' })
  @ApiEnvelopeResponse(QueuedRunDto, { status: 202, description: 'Queued (or, `created: false`, the run of the same input already queued or loaded today).' })
  @ApiErrorResponses('invalid_request')
  @Post('ingest')
  @Idempotent()
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
  @ApiEnvelopeResponse(IngestRunDto, { description: 'The run, with links to its quarantined rows and to cancel it.' })
  @ApiErrorResponses('invalid_request', 'not_found')
  @Get('ingest/:id')
  async ingestRun(@Req() req: Request, @Param('id', uuid) id: string) {
    const run = await getRun(this.pool(), id);
    if (!run) throw new ApiError('not_found', `No ingest run ${id}.`);
    return successEnvelope(platformState(req), run, {
      links: { self: this.runUrl(req, id), rejected: this.runUrl(req, id, '/rejected'), cancel: this.runUrl(req, id, '/cancel') },
    });
  }

  @ApiOperation({
    summary: 'Cancel an ingest run',
    description:
      'A queued run is cancelled at once (200). A running one stops before its merge transaction, so its source keeps the data it had (202, status `running` until it stops, then `cancelled`); a run in its merge finishes as one transaction. A run that has ended answers 409 `conflict`.',
  })
  @ApiEnvelopeResponse(CancelledRunDto, { description: 'Cancelled: the run had not started.' })
  @ApiEnvelopeResponse(CancelledRunDto, { status: 202, description: 'Asked to stop: the running run stops before its merge.' })
  @ApiErrorResponses('invalid_request', 'not_found', 'conflict')
  @Post('ingest/:id/cancel')
  @Idempotent()
  async cancelIngestRun(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Param('id', uuid) id: string) {
    const outcome = await requestCancel(this.pool(), id);
    if (outcome.kind === 'not_found') throw new ApiError('not_found', `No ingest run ${id}.`);
    if (outcome.kind === 'finished') throw new ApiError('conflict', `Ingest run ${id} has already ended (${outcome.run.status}).`);
    if (outcome.kind === 'cancelled' && outcome.run.job_id) {
      // the queued job goes too; one already taken by a worker finds its run cancelled and stops (ingest-service.ts)
      await this.queues.get('ingest').getJob(outcome.run.job_id).then((job) => job?.remove()).catch(() => undefined);
    }
    res.status(outcome.kind === 'cancelled' ? 200 : 202);
    return successEnvelope(platformState(req), { run_id: id, status: outcome.run.status, cancel_requested_at: outcome.run.cancel_requested_at }, {
      links: { run: this.runUrl(req, id) },
    });
  }

  @ApiOperation({ summary: 'The rows an ingest run quarantined, with their reasons and raw text, in file order' })
  @ApiEnvelopeResponse(RejectedRowListDto, { description: 'One page of quarantined rows.', paginated: true })
  @ApiErrorResponses('invalid_request', 'not_found')
  @Get('ingest/:id/rejected')
  async rejected(@Req() req: Request, @Param('id', uuid) id: string, @Query() query: RejectedRowsQuery) {
    const run = await getRun(this.pool(), id);
    if (!run) throw new ApiError('not_found', `No ingest run ${id}.`);
    const limit = query.limit ?? 100;
    const rows = await rejectedRows(this.pool(), id, { limit: limit + 1, afterId: query.cursor, reason: query.reason });
    const page = rows.slice(0, limit);
    const nextCursor = rows.length > limit ? page[page.length - 1].id : null;
    // `_links.next` and the Link header come from the one response path (pagination-links.ts), as on every paginated list
    return successEnvelope(platformState(req), { rows: page }, { pagination: { limit, has_more: nextCursor !== null, next_cursor: nextCursor }, links: { run: this.runUrl(req, id) } });
  }

  @ApiOperation({ summary: 'Queue a scoring run (incremental, full, selected BBLs, or a history backfill)' })
  @ApiEnvelopeResponse(QueuedRunDto, { status: 202, description: 'Queued.' })
  @ApiErrorResponses('invalid_request')
  @Post('score')
  @Idempotent()
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
  @ApiEnvelopeResponse(ScoringRunDto, { description: 'The run.' })
  @ApiErrorResponses('invalid_request', 'not_found')
  @Get('score/:id')
  async scoringRun(@Req() req: Request, @Param('id', uuid) id: string) {
    const run = await getScoringRun(this.pool(), id);
    if (!run) throw new ApiError('not_found', `No scoring run ${id}.`);
    return successEnvelope(platformState(req), run);
  }
}
