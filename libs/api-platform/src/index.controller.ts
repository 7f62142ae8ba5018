import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AppConfig } from '@bhis/config';
import { SCORER_ID } from '@bhis/domain';
import { API_BASE_PATH, apiPath, successEnvelope, SuccessEnvelope } from '@bhis/envelope';
import { baseUrl } from './links';
import { platformState } from './request-context';
import { CONFIG } from './tokens';

/** Paths the index lists; feature modules register theirs with `registerIndexLinks`. */
const INDEX_LINKS: Record<string, string> = {
  self: API_BASE_PATH,
  health: apiPath('/health'),
  openapi: apiPath('/openapi.json'),
  llms_txt: '/llms.txt',
  api_docs: '/api-docs.md',
  methodology: '/methodology.md',
};

export function registerIndexLinks(links: Record<string, string>): void {
  Object.assign(INDEX_LINKS, links);
}

@ApiExcludeController()
@Controller(API_BASE_PATH)
export class IndexController {
  constructor(@Inject(CONFIG) private readonly config: AppConfig) {}

  /** The API index: links to every endpoint and reference file. Any valid key. */
  @Get()
  index(@Req() req: Request): SuccessEnvelope<{ name: string; api_version: string; scorer_id: string }> {
    const base = baseUrl(req, this.config.PUBLIC_BASE_URL);
    const links = Object.fromEntries(Object.entries(INDEX_LINKS).map(([k, path]) => [k, `${base}${path}`]));
    return successEnvelope(
      platformState(req),
      { name: 'Building Health Intelligence Service', api_version: 'v1', scorer_id: SCORER_ID },
      { links },
    );
  }
}
