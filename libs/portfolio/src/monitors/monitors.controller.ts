import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AppConfig } from '@bhis/config';
import { authenticatedKey, baseUrl, CONFIG, platformState, RequireScope } from '@bhis/api-platform';
import { API_BASE_PATH, apiPath, successEnvelope } from '@bhis/envelope';
import { decodeListCursor, paginate } from '../list-cursor';
import { ApiEnvelopeResponse, ApiErrorResponses, ApiKeyAuth } from '@bhis/api-platform';
import {
  CreatedMonitorDto,
  CreateMonitorDto,
  DeletedMonitorDto,
  DeliveryListDto,
  ListQueryDto,
  MonitorEnvelopeDataDto,
  MonitorListDto,
  TestDeliveryEnvelopeDataDto,
} from './monitor.dto';
import { MonitorService } from './monitor-service';
import { monitorLinks, monitorView } from './monitor-view';

const DEFAULT_LIMIT = 25;
const ID_PARAM = { name: 'id', format: 'uuid', description: 'Monitor id.' } as const;

@ApiTags('Portfolio monitors')
@ApiKeyAuth()
@RequireScope('portfolio:write')
@Controller(apiPath('/portfolio/monitor'))
export class MonitorsController {
  constructor(
    private readonly monitors: MonitorService,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  private base(req: Request): string {
    return baseUrl(req, this.config.PUBLIC_BASE_URL);
  }

  @Post()
  @ApiOperation({
    summary: 'Create a monitor',
    description:
      'Watches up to 10,000 buildings and sends a signed `building.grade_changed` webhook (Standard Webhooks) when one ' +
      'enters or leaves the listed grades (any grade change when `grades` is omitted). The signing secret is returned once.',
  })
  @ApiBody({ type: CreateMonitorDto })
  @ApiEnvelopeResponse(CreatedMonitorDto, { status: 201, description: 'The monitor and its signing secret (shown once).' })
  @ApiErrorResponses('invalid_request', 'invalid_bbl', 'too_many_bbls', 'payload_too_large')
  async create(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Body() body: CreateMonitorDto) {
    const { monitor, bbls, secret } = await this.monitors.create(authenticatedKey(req).id, body);
    const view = monitorView(monitor, this.base(req));
    res.setHeader('Location', view._links.self);
    res.setHeader('Cache-Control', 'no-store');
    return successEnvelope(platformState(req), { monitor: { ...view, bbls }, secret }, { links: view._links });
  }

  @Get()
  @ApiOperation({ summary: "List the key's monitors", description: 'Newest first; cursor pagination.' })
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
  @ApiOperation({ summary: 'Read a monitor', description: "Another key's monitor is 404." })
  @ApiParam(ID_PARAM)
  @ApiEnvelopeResponse(MonitorEnvelopeDataDto, { description: 'The monitor with its BBLs.' })
  @ApiErrorResponses('invalid_request', 'not_found')
  async get(@Req() req: Request, @Param('id') id: string) {
    const monitor = await this.monitors.get(authenticatedKey(req).id, id);
    const view = monitorView(monitor, this.base(req));
    return successEnvelope(platformState(req), { monitor: { ...view, bbls: await this.monitors.bbls(monitor.id) } }, { links: view._links });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a monitor', description: 'Pending deliveries are dropped.' })
  @ApiParam(ID_PARAM)
  @ApiEnvelopeResponse(DeletedMonitorDto, { description: 'Deleted.' })
  @ApiErrorResponses('invalid_request', 'not_found')
  async remove(@Req() req: Request, @Param('id') id: string) {
    await this.monitors.remove(authenticatedKey(req).id, id);
    return successEnvelope(platformState(req), { id: id.toLowerCase(), deleted: true });
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a test event', description: 'Queues a signed `monitor.test` event through the same outbox as real events.' })
  @ApiParam(ID_PARAM)
  @ApiEnvelopeResponse(TestDeliveryEnvelopeDataDto, { status: 202, description: 'The test delivery was queued.' })
  @ApiErrorResponses('invalid_request', 'not_found')
  async test(@Req() req: Request, @Param('id') id: string) {
    const delivery = await this.monitors.sendTest(authenticatedKey(req).id, id);
    const links = monitorLinks(this.base(req), id.toLowerCase());
    return successEnvelope(
      platformState(req),
      { delivery: { id: delivery.id, webhook_id: delivery.webhookId, event_type: 'monitor.test', status: 'pending' } },
      { links: { monitor: links.self, deliveries: links.deliveries } },
    );
  }

  @Get(':id/deliveries')
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
