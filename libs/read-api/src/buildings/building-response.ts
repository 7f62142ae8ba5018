import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AppConfig } from '@bhis/config';
import { baseUrl, CONFIG, RouteShortcut, RouteShortcuts } from '@bhis/api-platform';
import { sendCacheable, withMember } from '../shared/json-response';
import { BuildingDocumentRow, BuildingRepository } from './building.repository';
import { API_BASE_PATH, apiPath } from '@bhis/envelope';

/** The answer to a building lookup (200 with the document, or 304), from the controller or the shortcut. */
export function sendBuilding(req: Request, res: Response, row: BuildingDocumentRow, config: AppConfig, withExplanation = false): void {
  const base = `${baseUrl(req, config.PUBLIC_BASE_URL)}${API_BASE_PATH}/buildings/${row.bbl}`;
  sendCacheable(req, res, {
    data: withExplanation ? withMember(row.document, 'explanation', row.explanation ?? 'null') : row.document,
    ...(withExplanation ? {} : { dataDigest: row.digest }),
    pagination: null,
    links: { self: base, events: `${base}/events`, trajectory: `${base}/trajectory` },
  });
}

/** `/api/v1/buildings/` and a BBL in its canonical 10 digits, no query string. */
const CACHED_LOOKUP = new RegExp(`^${apiPath('/buildings/')}(\\d{10})$`);

/**
 * A lookup of a building whose document is in memory, answered before the router; every other lookup
 * (another spelling of the BBL, `include`, a document to read, an unknown building) goes on to
 * BuildingsController, which answers it with the same `sendBuilding`.
 */
@Injectable()
export class CachedBuildingShortcut implements RouteShortcut, OnModuleInit {
  readonly route = apiPath('/buildings/:bbl');
  readonly scope = 'buildings:read' as const;

  constructor(
    private readonly buildings: BuildingRepository,
    private readonly shortcuts: RouteShortcuts,
    @Inject(CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.shortcuts.register(this);
  }

  tryAnswer(req: Request, res: Response): boolean {
    const bbl = CACHED_LOOKUP.exec(req.url)?.[1];
    const row = bbl === undefined ? undefined : this.buildings.cached(bbl);
    if (!row) return false;
    sendBuilding(req, res, row, this.config);
    return true;
  }
}
