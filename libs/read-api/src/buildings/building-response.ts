import type { Request } from 'express';
import type { AppConfig } from '@bhis/config';
import { baseUrl, WrittenAnswer } from '@bhis/api-platform';
import { cacheable, withMember } from '../shared/json-response';
import type { BuildingDocumentRow } from './building.repository';
import { API_BASE_PATH } from '@bhis/envelope';

/** The answer to a building lookup (200 with the document, or 304). */
export function buildingAnswer(req: Request, row: BuildingDocumentRow, config: AppConfig, withExplanation = false): WrittenAnswer {
  const base = `${baseUrl(req, config.PUBLIC_BASE_URL)}${API_BASE_PATH}/buildings/${row.bbl}`;
  return cacheable({
    data: withExplanation ? withMember(row.document, 'explanation', row.explanation ?? 'null') : row.document,
    ...(withExplanation ? {} : { dataDigest: row.digest }),
    pagination: null,
    links: { self: base, events: `${base}/events`, trajectory: `${base}/trajectory` },
  });
}
