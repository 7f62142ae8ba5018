import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireScope } from './decorators';
import { ApiMetrics } from './metrics';

/**
 * Prometheus text format. It shows routes, volumes and the state of the backing services, so it needs
 * a key with the `metrics:read` scope (a scraper sends it as a Bearer token), like every other route.
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: ApiMetrics) {}

  @RequireScope('metrics:read')
  @Get()
  async metricsText(@Res() res: Response): Promise<void> {
    res.setHeader('Content-Type', this.metrics.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(await this.metrics.registry.metrics());
  }
}
