import { Body, Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AppConfig } from '@bhis/config';
import { CONFIG, costOfBbls, RequestCharges, RequireScope, routeCostOf, Idempotent } from '@bhis/api-platform';
import { ReadReplicas } from '@bhis/db';
import { ApiErrorResponses, ApiKeyAuth } from '@bhis/api-platform';
import { CSV_COLUMNS } from './csv-columns';
import { streamCsv } from './csv-stream';
import { ExportRequestDto } from './export.dto';
import { buildExportQuery, countExportRows, NAMED_MISSES } from './export-query';
import { ExportSlots } from './export-slots';
import { apiPath } from '@bhis/envelope';

function exportFilename(now = new Date()): string {
  return `bhis-export-${now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}.csv`;
}

@ApiTags('Export')
@ApiKeyAuth()
@Controller(apiPath('/export/csv'))
export class ExportController {
  private readonly slots: ExportSlots;

  /** Published data only: a replica may answer (ReadReplicas). */
  constructor(
    private readonly replicas: ReadReplicas,
    @Inject(CONFIG) config: AppConfig,
    private readonly charges: RequestCharges,
  ) {
    this.slots = new ExportSlots(config.DATABASE_POOL_SIZE);
  }

  @Post()
  @Idempotent()
  @RequireScope('portfolio:read')
  @ApiOperation({
    summary: 'CSV export of up to 10,000 buildings',
    description:
      'Body: `{ "bbls": [...] }` (rows in request order; invalid, unknown and not yet scored BBLs get no row, and the ' +
      '`X-Export-*` headers say which and how many) or the search filters ' +
      '(rows worst first, at most 10,000). Streams `text/csv` with a header row: ' +
      `${CSV_COLUMNS.join(', ')}. Flags are joined with ";"; text cells that begin with =, +, -, @, tab or CR are ` +
      'prefixed with a single quote so spreadsheets do not run them as formulas. Costs 1 rate-limit unit per 100 rows ' +
      '(BBLs sent, or rows matching the filters; at least 5). A client that takes no data for 20 s is cut off.',
  })
  @ApiBody({ type: ExportRequestDto })
  @ApiProduces('text/csv')
  @ApiResponse({
    status: 200,
    description: 'The CSV file (Content-Disposition: attachment).',
    headers: {
      'X-Export-Not-Found': {
        description: 'Export of a BBL list only: how many of its valid BBLs have no row (not in the data set, or not scored yet).',
        schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 10000, example: 1 },
      },
      'X-Export-Not-Found-Bbls': {
        description: `Export of a BBL list only: those BBLs, comma-separated in request order, the first ${NAMED_MISSES} (the count names them all); empty when none.`,
        schema: { type: 'string', example: '2000010001' },
      },
      'X-Export-Invalid': { description: 'Export of a BBL list only: distinct entries that are not valid BBLs (no row).', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 10000, example: 0 } },
      'X-Export-Duplicates': { description: 'Export of a BBL list only: repeated entries, collapsed into one row.', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 10000, example: 0 } },
    },
    content: { 'text/csv': { schema: { type: 'string', example: `${CSV_COLUMNS.slice(0, 4).join(',')},...\n1000010001,1 MAIN STREET,1,10001,...` } } },
  })
  @ApiErrorResponses('invalid_request', 'too_many_bbls', 'payload_too_large', 'unsupported_media_type', 'rate_limit_exceeded')
  async export(@Req() req: Request, @Body() body: ExportRequestDto, @Res() res: Response): Promise<void> {
    const query = buildExportQuery(body);
    if (body.bbls === undefined) {
      // a filtered export costs what its rows would cost as a BBL list (the pipeline charged the minimum)
      const rows = await countExportRows(this.replicas.readPool, query);
      const route = routeCostOf('POST', apiPath('/export/csv'));
      await this.charges.charge(req, costOfBbls(route, rows) - costOfBbls(route, 0));
    }
    const release = this.slots.acquire();
    try {
      await streamCsv(this.replicas.readPool, query, res, exportFilename());
    } finally {
      release();
    }
  }
}
