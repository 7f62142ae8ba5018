import { Body, Controller, Post, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireScope } from '@bhis/api-platform';
import { ReadReplicas } from '@bhis/db';
import { ApiErrorResponses, ApiKeyAuth } from '@bhis/api-platform';
import { CSV_COLUMNS } from './csv-columns';
import { streamCsv } from './csv-stream';
import { ExportRequestDto } from './export.dto';
import { buildExportQuery } from './export-query';

function exportFilename(now = new Date()): string {
  return `bhis-export-${now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}.csv`;
}

@ApiTags('Export')
@ApiKeyAuth()
@Controller('api/v1/export/csv')
export class ExportController {
  /** Published data only: a replica may answer (ReadReplicas). */
  constructor(private readonly replicas: ReadReplicas) {}

  @Post()
  @RequireScope('portfolio:read')
  @ApiOperation({
    summary: 'CSV export of up to 10,000 buildings',
    description:
      'Body: `{ "bbls": [...] }` (rows in request order; invalid and unknown BBLs are skipped) or the search filters ' +
      '(rows worst first, at most 10,000). Streams `text/csv` with a header row: ' +
      `${CSV_COLUMNS.join(', ')}. Flags are joined with ";". Costs 1 rate-limit unit per 100 BBLs (at least 5).`,
  })
  @ApiBody({ type: ExportRequestDto })
  @ApiProduces('text/csv')
  @ApiResponse({
    status: 200,
    description: 'The CSV file (Content-Disposition: attachment).',
    content: { 'text/csv': { schema: { type: 'string', example: `${CSV_COLUMNS.slice(0, 4).join(',')},...\n1000010001,1 MAIN STREET,1,10001,...` } } },
  })
  @ApiErrorResponses('invalid_request', 'too_many_bbls', 'payload_too_large')
  async export(@Body() body: ExportRequestDto, @Res() res: Response): Promise<void> {
    const query = buildExportQuery(body);
    await streamCsv(this.replicas.readPool, query, res, exportFilename());
  }
}
