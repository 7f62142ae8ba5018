import { Logger, Module } from '@nestjs/common';
import type { AppConfig } from '@bhis/config';
import { CONFIG, registerIndexLinks } from '@bhis/api-platform';
import { ReadReplicas } from '@bhis/db';
import { BuildingRepository } from './buildings/building.repository';
import { BuildingsController } from './buildings/buildings.controller';
import { EventsController } from './events/events.controller';
import { EventsPageCache } from './events/events-page-cache';
import { EventsRepository } from './events/events.repository';
import { PagesDataController } from './pages/pages-data.controller';
import { PagesReader } from './pages/pages-reader';
import { PortfoliosController } from './portfolios/portfolios.controller';
import { PortfolioRepository } from './portfolios/portfolio.repository';
import { SearchController } from './search/search.controller';
import { SearchRepository } from './search/search.repository';
import { CursorCodec } from './shared/cursor';
import { READ_POOL } from './shared/tokens';
import { TrajectoryController } from './trajectory/trajectory.controller';
import { TrajectoryRepository } from './trajectory/trajectory.repository';
import { apiPath } from '@bhis/envelope';

/**
 * The building read endpoints: lookup, batch, search, events, trajectory and landlord portfolios. Needs ApiPlatformModule
 * (CONFIG, ReadReplicas). Pagination cursors are signed with CURSOR_SECRET when the environment has
 * it, else with a random key of this process, with a warning (see CursorCodec).
 */
@Module({
  // SearchController first: `buildings/search` must be routed before `buildings/:bbl`
  controllers: [SearchController, BuildingsController, EventsController, TrajectoryController, PagesDataController, PortfoliosController],
  providers: [
    // published data: a streaming replica may answer (DATABASE_READ_URL), else the primary
    { provide: READ_POOL, useFactory: (replicas: ReadReplicas) => () => replicas.readPool, inject: [ReadReplicas] },
    {
      provide: CursorCodec,
      useFactory: (config: AppConfig) => {
        if (!config.CURSOR_SECRET) {
          new Logger('CursorCodec').warn(
            'CURSOR_SECRET is not set: pagination cursors are signed with a random key of this process and are refused by other instances and after a restart',
          );
        }
        return CursorCodec.fromSecret(config.CURSOR_SECRET);
      },
      inject: [CONFIG],
    },
    BuildingRepository,
    SearchRepository,
    EventsRepository,
    EventsPageCache,
    TrajectoryRepository,
    PortfolioRepository,
    PagesReader,
  ],
  // the server-rendered pages (libs/web) read through it
  exports: [PagesReader],
})
export class ReadApiModule {
  constructor() {
    registerIndexLinks({
      building: apiPath('/buildings/{bbl}'),
      building_events: apiPath('/buildings/{bbl}/events'),
      building_event: apiPath('/buildings/{bbl}/events/{id}'),
      building_trajectory: apiPath('/buildings/{bbl}/trajectory'),
      buildings_batch: apiPath('/buildings/batch'),
      buildings_search: apiPath('/buildings/search'),
      building_portfolio: apiPath('/buildings/{bbl}/portfolio'),
      portfolio: apiPath('/portfolios/{id}'),
    });
  }
}
