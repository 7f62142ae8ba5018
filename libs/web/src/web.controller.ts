import { dirname, join } from 'node:path';
import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AppConfig } from '@bhis/config';
import { baseUrl, CONFIG, Public } from '@bhis/api-platform';
import { renderMethodology } from '@bhis/scoring';
import { docsScriptSource, pageScriptSource } from './browser/page-script';
import { OPENAPI_DOCUMENT } from './generated/openapi-document';
import { pageCsp } from './pages/html';
import { PrecompressedAssets } from './precompressed-assets';
import { buildingPage, MapTiles } from './pages/building-page';
import { HISTORY_FILTERS, historyPage } from './pages/history-page';
import { badRequestPage, docsPage, homePage, methodologyPage, notFoundPage } from './pages/pages';
import { SITE_CSS } from './pages/site-css';
import { renderApiDocs } from './reference/api-docs-markdown';
import { renderLlmsTxt } from './reference/llms-txt';
import { ApiError, apiPath } from '@bhis/envelope';
import { PagesHistoryQuery, PagesReader } from '@bhis/read-api';

const BBL_PATTERN = /^[1-5](?!00000)\d{5}\d{4}$/;

/** Built once: the page scripts as the browser gets them. */
const WEB_ASSETS: Record<string, { type: string; body: string }> = {
  'site.css': { type: 'text/css; charset=utf-8', body: SITE_CSS },
  'app.js': { type: 'text/javascript; charset=utf-8', body: pageScriptSource() },
  'docs.js': { type: 'text/javascript; charset=utf-8', body: docsScriptSource() },
};

/** The files of swagger-ui-dist the /docs page loads, served from the installed package. */
const SWAGGER_UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

/** The reference files and pages at the site root; no API key needed. */
@ApiExcludeController()
@Public()
@Controller()
export class WebController {
  private readonly methodology = renderMethodology();
  private readonly pages = new Map<string, string>();
  private readonly csp: string;
  private readonly tiles: MapTiles | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly assets: PrecompressedAssets,
    private readonly reader: PagesReader,
  ) {
    const tileUrl = config.WEB_MAP_TILE_URL;
    // the template's braces are not URL syntax: the origin is read from the text before the first one
    this.tiles = tileUrl ? { url: tileUrl, attribution: config.WEB_MAP_TILE_ATTRIBUTION } : undefined;
    this.csp = pageCsp(tileUrl ? new URL(tileUrl.slice(0, tileUrl.indexOf('{'))).origin : undefined);
  }

  @Get(apiPath('/openapi.json'))
  openApi(@Res() res: Response): void {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(OPENAPI_DOCUMENT);
  }

  @Get('llms.txt')
  llmsTxt(@Req() req: Request, @Res() res: Response): void {
    this.sendText(res, 'text/plain; charset=utf-8', renderLlmsTxt(OPENAPI_DOCUMENT, this.siteUrl(req)));
  }

  @Get('api-docs.md')
  apiDocs(@Req() req: Request, @Res() res: Response): void {
    this.sendText(res, 'text/markdown; charset=utf-8', renderApiDocs(OPENAPI_DOCUMENT, this.siteUrl(req)));
  }

  @Get('methodology.md')
  methodologyMarkdown(@Res() res: Response): void {
    this.sendText(res, 'text/markdown; charset=utf-8', this.methodology);
  }

  @Get()
  home(@Res() res: Response): void {
    this.sendPage(res, 200, this.cached('home', homePage));
  }

  @Get('buildings/:bbl')
  async building(@Param('bbl') bbl: string, @Res() res: Response): Promise<void> {
    if (!this.knownBbl(bbl, res)) return;
    const building = await this.reader.building(bbl);
    if (!building) return this.unknownBuilding(bbl, res);
    const [trajectory, recent, portfolio] = await Promise.all([
      this.reader.trajectory(bbl),
      this.reader.history(bbl, { limit: '15' }),
      this.reader.portfolio(bbl),
    ]);
    this.sendPage(res, 200, buildingPage({ building, trajectory, recent: recent?.events ?? [], portfolio, tiles: this.tiles }));
  }

  @Get('buildings/:bbl/history')
  async history(@Param('bbl') bbl: string, @Query() raw: Record<string, unknown>, @Res() res: Response): Promise<void> {
    if (!this.knownBbl(bbl, res)) return;
    const query = historyQuery(raw);
    try {
      const [building, page] = await Promise.all([this.reader.building(bbl), this.reader.history(bbl, query)]);
      if (!building || !page) return this.unknownBuilding(bbl, res);
      this.sendPage(res, 200, historyPage({ bbl, address: building.document.address, query, events: page.events, next: page.next }));
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 400) throw error;
      this.sendPage(res, 400, badRequestPage(error.message, { href: `/buildings/${bbl}/history`, text: 'Show the whole history' }));
    }
  }

  /** False (after answering 404) when the text is not a BBL at all. */
  private knownBbl(bbl: string, res: Response): boolean {
    if (BBL_PATTERN.test(bbl)) return true;
    this.sendPage(res, 404, notFoundPage(`"${bbl.slice(0, 40)}" is not a BBL: a BBL is 10 digits (borough 1-5, block, lot).`));
    return false;
  }

  private unknownBuilding(bbl: string, res: Response): void {
    this.sendPage(res, 404, notFoundPage(`No building with BBL ${bbl} in the data set.`));
  }

  @Get('methodology')
  methodologyHtml(@Res() res: Response): void {
    this.sendPage(res, 200, this.cached('methodology', () => methodologyPage(this.methodology)));
  }

  @Get('docs')
  docs(@Res() res: Response): void {
    this.sendPage(res, 200, this.cached('docs', docsPage));
  }

  @Get('assets/web/:file')
  webAsset(@Param('file') file: string, @Res() res: Response): void {
    const asset = Object.prototype.hasOwnProperty.call(WEB_ASSETS, file) ? WEB_ASSETS[file] : undefined;
    if (!asset) return void this.sendText(res.status(404), 'text/plain; charset=utf-8', 'Not found.\n');
    res.setHeader('Cache-Control', 'public, max-age=300');
    this.sendText(res, asset.type, asset.body);
  }

  @Get('assets/swagger-ui/:file')
  async swaggerUiAsset(@Param('file') file: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const type = Object.prototype.hasOwnProperty.call(SWAGGER_UI_FILES, file) ? SWAGGER_UI_FILES[file] : undefined;
    if (!type) return void this.sendText(res.status(404), 'text/plain; charset=utf-8', 'Not found.\n');
    res.setHeader('Cache-Control', 'public, max-age=86400');
    await this.assets.send(req, res, join(SWAGGER_UI_DIR, file), type);
  }

  private siteUrl(req: Request): string {
    return baseUrl(req, this.config.PUBLIC_BASE_URL);
  }

  private cached(name: string, render: () => string): string {
    let page = this.pages.get(name);
    if (page === undefined) {
      page = render();
      this.pages.set(name, page);
    }
    return page;
  }

  private sendText(res: Response, type: string, body: string): void {
    res.setHeader('Content-Type', type);
    res.send(body);
  }

  private sendPage(res: Response, status: number, html: string): void {
    res.setHeader('Content-Security-Policy', this.csp);
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cache-Control', 'no-cache');
    res.status(status);
    this.sendText(res, 'text/html; charset=utf-8', html);
  }
}


/** The history page's filters and cursor from its query string; a field left empty in the form is no filter. */
function historyQuery(raw: Record<string, unknown>): PagesHistoryQuery {
  const query: PagesHistoryQuery = {};
  for (const name of [...HISTORY_FILTERS, 'cursor'] as const) {
    const value = raw[name];
    // a repeated parameter arrives as an array: the first one counts
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text === 'string' && text.trim() !== '') query[name] = text.trim();
  }
  return query;
}
