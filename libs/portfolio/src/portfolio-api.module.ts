import { Module } from '@nestjs/common';
import { registerIndexLinks } from '@bhis/api-platform';
import { AnalyzeController } from './analyze/analyze.controller';
import { ExportController } from './export/export.controller';
import { MonitorService } from './monitors/monitor-service';
import { MonitorsController } from './monitors/monitors.controller';
import { WebhookQueue } from './monitors/webhook-queue';
import { SourcesController } from './sources/sources.controller';

registerIndexLinks({
  portfolio_analyze: '/api/v1/portfolio/analyze',
  portfolio_monitor: '/api/v1/portfolio/monitor',
  export_csv: '/api/v1/export/csv',
  sources: '/api/v1/sources',
});

/** Portfolio analysis, monitors (webhooks), CSV export and source freshness. */
@Module({
  controllers: [AnalyzeController, MonitorsController, ExportController, SourcesController],
  providers: [MonitorService, WebhookQueue],
})
export class PortfolioApiModule {}
