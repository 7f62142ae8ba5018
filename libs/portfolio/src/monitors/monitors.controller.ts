import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AppConfig } from '@bhis/config';
import { authenticatedKey, baseUrl, CONFIG, costOfBbls, platformState, RequestCharges, RequireScope, routeCostOf, Idempotent } from '@bhis/api-platform';
import { API_BASE_PATH, apiPath, successEnvelope } from '@bhis/envelope';
import { decodeBblCursor, decodeListCursor, encodeBblCursor, paginate } from '../list-cursor';
import { ApiEnvelopeResponse, ApiErrorResponses, ApiKeyAuth } from '@bhis/api-platform';
import {
  CreatedMonitorDto,
  CreateMonitorDto,
  DeletedMonitorDto,
  DeliveryListDto,
  ListQueryDto,
  MONITOR_BBLS_PAGE_MAX,
  MonitorBblsQueryDto,
  MonitorEnvelopeDataDto,
  MonitorListDto,
  RotatedSecretDto,
  RotateSecretDto,
  SECRET_OVERLAP_DEFAULT_SECONDS,
  TestDeliveryEnvelopeDataDto,
  UpdatedMonitorDto,
  UpdateMonitorDto,
} from './monitor.dto';
import { MonitorService, TEST_DELIVERY_UNITS } from './monitor-service';
import { MONITOR_CREATIONS_PER_HOUR, TEST_DELIVERIES_PER_MINUTE } from './monitor-write-limits';
import { monitorLinks, monitorView } from './monitor-view';

const DEFAULT_LIMIT = 25;
const ID_PARAM = { name: 'id', format: 'uuid', description: 'Monitor id.' } as const;
/** Creating a monitor is priced by its BBLs (route-costs.ts); deleting one costs the same. */
const MONITOR_ROUTE = routeCostOf('POST', apiPath('/portfolio/monitor'));

@ApiTags('Portfolio monitors')
@ApiKeyAuth()
@RequireScope('portfolio:write')
@Controller(apiPath('/portfolio/monitor'))
export class MonitorsController {
  constructor(
    private readonly monitors: MonitorService,
    private readonly charges: RequestCharges,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  private base(req: Request): string {
    return baseUrl(req, this.config.PUBLIC_BASE_URL);
  }

  /** Charges the request up to `total` units (the pipeline charged its minimum); 429 when they are not available. */
  private chargeTotal(req: Request): (total: number) => Promise<void> {
    return (total) => this.charges.charge(req, total - platformState(req).cost);
  }

  @Post()
  @Idempotent()
  @ApiOperation({
    summary: 'Create a monitor',
    description:
      'Watches up to 10,000 buildings (`bbls`, or the buildings of a landlord portfolio, `portfolio_id`, followed as the portfolio changes) and sends a signed `building.grade_changed` webhook (Standard Webhooks) when one ' +
      'enters or leaves the listed grades (any grade change when `grades` is omitted). The signing secret is returned once. ' +
      `Costs 1 unit per 100 BBLs (at least 1); at most ${MONITOR_CREATIONS_PER_HOUR} creations per key and hour (429 with \`Retry-After\`).`,
  })
  @ApiBody({ type: CreateMonitorDto })
  @ApiEnvelopeResponse(CreatedMonitorDto, { status: 201, description: 'The monitor and its signing secret (shown once).' })
  @ApiErrorResponses('invalid_request', 'invalid_bbl', 'too_many_bbls', 'portfolio_not_found', 'payload_too_large', 'rate_limit_exceeded')
  async create(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Body() body: CreateMonitorDto) {
    const charge = this.chargeTotal(req);
    const { monitor, bbls, secret } = await this.monitors.create(authenticatedKey(req).id, body, (n) => charge(costOfBbls(MONITOR_ROUTE, n)));
    const view = monitorView(monitor, this.base(req));
    res.setHeader('Location', view._links.self);
    res.setHeader('Cache-Control', 'no-store');
    return successEnvelope(platformState(req), { monitor: { ...view, bbls }, secret }, { links: view._links });
  }

  @Get()
  @RequireScope('portfolio:read')
  @ApiOperation({ summary: "List the key's monitors", description: 'Newest first; cursor pagination. Reading monitors needs `portfolio:read`.' })
  @ApiEnvelopeResponse(MonitorListDto, { description: 'One page of monitors.', paginated: true })
  @ApiErrorResponses('invalid_request')
  async list(@Req() req: Request, @Query() query: ListQueryDto) {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const rows = await this.monitors.list(authenticatedKey(req).id, limit, decodeListCursor(query.cursor));
    const base = this.base(req);
    const page = paginate(rows.map((r) => ({ item: monitorView(r.monitor, base), position: r.position })), limit);
    return successEnvelope(platformState(req), { monitors: page.items }, { pagination: page.pagination, links: { self: `${base}${API_BASE_PATH}/portfolio/monitor` } });
  }

  @Get(':id')
  @RequireScope('portfolio:read')
  @ApiOperation({
    summary: 'Read a monitor',
    description:
      `Another key's monitor is 404. \`bbls\` holds one page of the monitor's BBLs in order (at most ${MONITOR_BBLS_PAGE_MAX}; ` +
      '`bbl_count` is the total): pass `pagination.next_cursor` as `cursor` for the next page.',
  })
  @ApiParam(ID_PARAM)
  @ApiEnvelopeResponse(MonitorEnvelopeDataDto, { description: 'The monitor with one page of its BBLs.', paginated: true })
  @ApiErrorResponses('invalid_request', 'not_found')
  async get(@Req() req: Request, @Param('id') id: string, @Query() query: MonitorBblsQueryDto) {
    const limit = query.limit ?? MONITOR_BBLS_PAGE_MAX;
    const after = decodeBblCursor(query.cursor);
    const monitor = await this.monitors.get(authenticatedKey(req).id, id);
    const view = monitorView(monitor, this.base(req));
    const read = await this.monitors.bbls(monitor.id, after, limit);
    const bbls = read.slice(0, limit);
    const hasMore = read.length > limit;
    const last = bbls[bbls.length - 1];
    return successEnvelope(
      platformState(req),
      { monitor: { ...view, bbls } },
      { pagination: { limit, has_more: hasMore, next_cursor: hasMore && last ? encodeBblCursor(last) : null }, links: view._links },
    );
  }

  @Patch(':id')
  @Idempotent()
  @ApiOperation({
    summary: 'Change a monitor',
    description:
      'Changes the fields sent and keeps the others; each is validated as at creation (`bbls` replaces the list, `grades: null` ' +
      'notifies of any grade change, `enabled: false` stops deliveries and cancels pending ones). Another key\'s monitor is 404. ' +
      'Costs 1 unit per 100 BBLs sent (at least 1).',
  })
  @ApiParam(ID_PARAM)
  @ApiBody({ type: UpdateMonitorDto })
  @ApiEnvelopeResponse(UpdatedMonitorDto, { description: 'The monitor as changed (its BBLs: `GET` it).' })
  @ApiErrorResponses('invalid_request', 'invalid_bbl', 'too_many_bbls', 'not_found', 'portfolio_not_found', 'payload_too_large', 'rate_limit_exceeded')
  async update(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Param('id') id: string, @Body() body: UpdateMonitorDto) {
    const charge = this.chargeTotal(req);
    const view = monitorView(await this.monitors.update(authenticatedKey(req).id, id, body, (n) => charge(costOfBbls(MONITOR_ROUTE, n))), this.base(req));
    res.setHeader('Cache-Control', 'no-store');
    return successEnvelope(platformState(req), { monitor: view }, { links: view._links });
  }

  @Post(':id/rotate-secret')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description:
      'Returns a new signing secret, shown once. For `overlap_seconds` (default 86,400, at most 604,800) deliveries carry two ' +
      'signatures in `webhook-signature`, one per secret, so a receiver can switch without missing an event; a rotation ' +
      'within the overlap drops the older secret. Another key\'s monitor is 404.',
  })
  @ApiParam(ID_PARAM)
  @ApiBody({ type: RotateSecretDto, required: false })
  @ApiEnvelopeResponse(RotatedSecretDto, { description: 'The monitor and its new signing secret (shown once).' })
  @ApiErrorResponses('invalid_request', 'not_found', 'rate_limit_exceeded')
  async rotateSecret(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Param('id') id: string, @Body() body: RotateSecretDto) {
    const { monitor, secret } = await this.monitors.rotateSecret(authenticatedKey(req).id, id, body.overlap_seconds ?? SECRET_OVERLAP_DEFAULT_SECONDS);
    const view = monitorView(monitor, this.base(req));
    res.setHeader('Cache-Control', 'no-store');
    return successEnvelope(platformState(req), { monitor: view, secret }, { links: view._links });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a monitor', description: 'Pending deliveries are dropped. Costs what creating it did: 1 unit per 100 BBLs (at least 1).' })
  @ApiParam(ID_PARAM)
  @ApiEnvelopeResponse(DeletedMonitorDto, { description: 'Deleted.' })
  @ApiErrorResponses('invalid_request', 'not_found', 'rate_limit_exceeded')
  async remove(@Req() req: Request, @Param('id') id: string) {
    const charge = this.chargeTotal(req);
    await this.monitors.remove(authenticatedKey(req).id, id, (bblCount) => charge(costOfBbls(MONITOR_ROUTE, bblCount)));
    return successEnvelope(platformState(req), { id: id.toLowerCase(), deleted: true });
  }

  @Post(':id/test')
  @Idempotent()
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send a test event',
    description:
      'Queues a signed `monitor.test` event through the same outbox as real events. ' +
      `Costs ${TEST_DELIVERY_UNITS} units (the first attempt and its retries); at most ${TEST_DELIVERIES_PER_MINUTE} test events per monitor and minute (429 with \`Retry-After\`).`,
  })
  @ApiParam(ID_PARAM)
  @ApiEnvelopeResponse(TestDeliveryEnvelopeDataDto, { status: 202, description: 'The test delivery was queued.' })
  @ApiErrorResponses('invalid_request', 'not_found', 'rate_limit_exceeded')
  async test(@Req() req: Request, @Param('id') id: string) {
    const delivery = await this.monitors.sendTest(authenticatedKey(req).id, id, this.chargeTotal(req));
    const links = monitorLinks(this.base(req), id.toLowerCase());
    return successEnvelope(
      platformState(req),
      { delivery: { id: delivery.id, webhook_id: delivery.webhookId, event_type: 'monitor.test', status: 'pending' } },
      { links: { monitor: links.self, deliveries: links.deliveries } },
    );
  }

  @Get(':id/deliveries')
  @RequireScope('portfolio:read')
  @ApiOperation({ summary: 'List deliveries and their attempts', description: 'Newest first; each attempt with status code, duration and error.' })
  @ApiParam(ID_PARAM)
  @ApiEnvelopeResponse(DeliveryListDto, { description: 'One page of deliveries.', paginated: true })
  @ApiErrorResponses('invalid_request', 'not_found')
  async deliveries(@Req() req: Request, @Param('id') id: string, @Query() query: ListQueryDto) {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const rows = await this.monitors.deliveries(authenticatedKey(req).id, id, limit, decodeListCursor(query.cursor));
    const page = paginate(rows.map((r) => ({ item: r.delivery, position: r.position })), limit);
    const links = monitorLinks(this.base(req), id.toLowerCase());
    return successEnvelope(platformState(req), { deliveries: page.items }, { pagination: page.pagination, links: { self: links.deliveries, monitor: links.self } });
  }
}
