import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { READ_POOL } from '../shared/tokens';
import { BUILDING_DOCUMENT_SQL, EXPLANATION_SQL } from './building-documents.sql';

export interface BuildingDocumentRow {
  bbl: string;
  /** The building object as JSON text. */
  document: string;
  /** The explanation as JSON text (only when asked for). */
  explanation?: string;
}

const LOOKUP = {
  name: 'read_api_building',
  text: `SELECT b.bbl, ${BUILDING_DOCUMENT_SQL} AS document
           FROM buildings b LEFT JOIN building_scores s ON s.bbl = b.bbl
          WHERE b.bbl = $1`,
};

const LOOKUP_WITH_EXPLANATION = {
  name: 'read_api_building_explained',
  text: `SELECT b.bbl, ${BUILDING_DOCUMENT_SQL} AS document, ${EXPLANATION_SQL} AS explanation
           FROM buildings b LEFT JOIN building_scores s ON s.bbl = b.bbl
          WHERE b.bbl = $1`,
};

/** One statement for the whole batch: a primary-key probe per BBL, whatever the batch size. */
const BATCH = {
  name: 'read_api_building_batch',
  text: `SELECT b.bbl, ${BUILDING_DOCUMENT_SQL} AS document
           FROM buildings b LEFT JOIN building_scores s ON s.bbl = b.bbl
          WHERE b.bbl = ANY($1::bpchar[])`,
};

/** Reads building documents (prepared statements: parsed and planned once per connection). */
@Injectable()
export class BuildingRepository {
  constructor(@Inject(READ_POOL) private readonly pool: () => Pool) {}

  async findOne(bbl: string, withExplanation: boolean): Promise<BuildingDocumentRow | null> {
    const statement = withExplanation ? LOOKUP_WITH_EXPLANATION : LOOKUP;
    const { rows } = await this.pool().query<BuildingDocumentRow>({ ...statement, values: [bbl] });
    return rows[0] ?? null;
  }

  /** Documents of the BBLs that exist, by BBL. */
  async findMany(bbls: readonly string[]): Promise<Map<string, string>> {
    if (bbls.length === 0) return new Map();
    const { rows } = await this.pool().query<BuildingDocumentRow>({ ...BATCH, values: [bbls] });
    return new Map(rows.map((row) => [row.bbl, row.document]));
  }
}
