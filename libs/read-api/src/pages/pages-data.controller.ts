import { Controller, Get, OnModuleInit, Param, Query, Req } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import type { WrittenAnswer } from '@bhis/api-platform';
import { AuthenticatedKey, platformState, Public } from '@bhis/api-platform';
import { DEMO_SCOPES } from '@bhis/domain';
import { BuildingsController } from '../buildings/buildings.controller';
import { EventsController } from '../events/events.controller';
import { EventsQueryDto } from '../events/events-query.dto';
import { SearchController } from '../search/search.controller';
import { SearchQueryDto } from '../search/search-query.dto';
import { TrajectoryController } from '../trajectory/trajectory.controller';
import { TrajectoryQueryDto } from '../trajectory/trajectory-query.dto';

/** Where the web pages (libs/web) read their data: the read endpoints under a path of their own. */
export const PAGES_DATA_PATH = '/web/data';

/**
 * Who the pages' requests read as: the demo key's scopes, under an id no stored key can have (ids are
 * UUIDs), so the pages' cursors are their own. It is never a key: no client can present it.
 */
const PAGES_READER: AuthenticatedKey = { id: 'web-pages', name: 'web pages', kind: 'demo', prefix: 'web-pages', scopes: [...DEMO_SCOPES], rateLimitPerMin: null };

/**
 * The data of the public pages, without an API key in the browser: the read endpoints the pages use
 * (lookup, search, events, trajectory), answered in-process by the same controllers, with the same
 * validation and the same answers. Without a key, each request is charged to the visitor's address
 * (RATE_LIMIT_ANONYMOUS_PER_MIN, like every keyless request), so no API key's use, a developer's demo
 * key included, can exhaust the pages, and one visitor cannot exhaust them for the others.
 */
@ApiExcludeController()
@Public()
@Controller(`${PAGES_DATA_PATH}/buildings`)
export class PagesDataController implements OnModuleInit {
  private buildings!: BuildingsController;
  private search!: SearchController;
  private events!: EventsController;
  private trajectory!: TrajectoryController;

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    this.buildings = this.moduleRef.get(BuildingsController);
    this.search = this.moduleRef.get(SearchController);
    this.events = this.moduleRef.get(EventsController);
    this.trajectory = this.moduleRef.get(TrajectoryController);
  }

  // before `:bbl`, as in the read API
  @Get('search')
  find(@Query() query: SearchQueryDto, @Req() req: Request): Promise<WrittenAnswer> {
    return this.search.find(query, asPages(req));
  }

  @Get(':bbl')
  lookup(@Param('bbl') bbl: string, @Req() req: Request): Promise<WrittenAnswer> {
    return this.buildings.lookup(bbl, asPages(req));
  }

  @Get(':bbl/events')
  list(@Param('bbl') bbl: string, @Query() query: EventsQueryDto, @Req() req: Request): Promise<WrittenAnswer> {
    return this.events.list(bbl, query, asPages(req));
  }

  @Get(':bbl/trajectory')
  points(@Param('bbl') bbl: string, @Query() query: TrajectoryQueryDto, @Req() req: Request): Promise<WrittenAnswer> {
    return this.trajectory.points(bbl, query, asPages(req));
  }
}

/** The request, read from here on as the pages' (it was charged to the visitor's address already). */
function asPages(req: Request): Request {
  platformState(req).auth = { state: 'valid', key: PAGES_READER };
  return req;
}
