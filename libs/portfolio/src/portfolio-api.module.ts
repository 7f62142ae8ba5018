import { Module } from '@nestjs/common';
import { registerIndexLinks } from '@bhis/api-platform';
import { AnalyzeController } from './analyze/analyze.controller';
import { ExportController } from './export/export.controller';
import { MonitorService } from './monitors/monitor-service';
import { MonitorsController } from './monitors/monitors.controller';
import { MonitorWriteLimits } from './monitors/monitor-write-limits';
import { WebhookQueue } from './monitors/webhook-queue';
import { SourceMetrics } from './sources/source-metrics';
import { SourcesController } from './sources/sources.controller';
import { apiPath } from '@bhis/envelope';

registerIndexLinks({
  portfolio_analyze: apiPath('/portfolio/analyze'),
  portfolio_monitor: apiPath('/portfolio/monitor'),
  export_csv: apiPath('/export/csv'),
  sources: apiPath('/sources'),
});

/** Portfolio analysis, monitors (webhooks), CSV export and source freshness. */
@Module({
  controllers: [AnalyzeController, MonitorsController, ExportController, SourcesController],
  providers: [MonitorService, MonitorWriteLimits, WebhookQueue, SourceMetrics],
})
export class PortfolioApiModule {}
