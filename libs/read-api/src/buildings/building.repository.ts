import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@bhis/config';
import { CONFIG } from '@bhis/api-platform';
import { CHANGE_CHANNELS, ChangeListener, NotifiedCache, ReadPool } from '@bhis/db';
import { digestOf } from '../shared/json-response';
import { READ_POOL } from '../shared/tokens';
import { type DocumentFacts, unscoredBuildingDocument } from '@bhis/scoring';

export interface BuildingDocumentRow {
  bbl: string;
  /** The building object as JSON text. */
  document: string;
  /** The explanation as JSON text (only when asked for). */
  explanation?: string;
  /** `digestOf(document)`, for documents kept in memory. */
  digest?: string;
}

interface CachedDocument {
  text: string;
  /** Computed on the first single lookup that needs it (a batch does not). */
  digest?: string;
}

/**
 * A building row: the document the scoring worker stored, served as is, or for a building not scored
 * yet (no score row, or an empty document) its facts, shaped by `unscoredBuildingDocument`.
 */
const BUILDING_ROW = `b.bbl, b.borough, b.address, b.city, b.zipcode, b.residential_units, b.total_units, b.year_built,
       b.building_class, b.owner_name, b.latitude, b.longitude,
       CASE WHEN s.document::text <> '{}' THEN s.document::text END AS document,
       CASE WHEN s.document::text <> '{}' THEN to_char(s.as_of, 'YYYY-MM-DD') END AS as_of,
       CASE WHEN s.document::text <> '{}' THEN s.updated_at END AS scored_at,
       (SELECT max(last_refreshed_at) FROM sources) AS data_as_of`;

interface BuildingSqlRow extends DocumentFacts {
  document: string | null;
  /** The data date the score reflects (the CSV export's `as_of`). */
  as_of: string | null;
  scored_at: Date | null;
  /** The latest successful refresh of any source. */
  data_as_of: Date | null;
  explanation?: string | null;
}

const LOOKUP = {
  name: 'read_api_building',
  text: `SELECT ${BUILDING_ROW} FROM buildings b LEFT JOIN building_scores s ON s.bbl = b.bbl WHERE b.bbl = $1`,
};

const LOOKUP_WITH_EXPLANATION = {
  name: 'read_api_building_explained',
  text: `SELECT ${BUILDING_ROW}, s.explanation::text AS explanation
           FROM buildings b LEFT JOIN building_scores s ON s.bbl = b.bbl WHERE b.bbl = $1`,
};

/** One statement for the whole batch: a primary-key probe per BBL, whatever the batch size. */
const BATCH = {
  name: 'read_api_building_batch',
  text: `SELECT ${BUILDING_ROW} FROM buildings b LEFT JOIN building_scores s ON s.bbl = b.bbl WHERE b.bbl = ANY($1::bpchar[])`,
};

/**
 * The building object: the stored document (or the facts of a building not scored yet) with the dates
 * it reflects appended, once per read, so a document kept in memory is served without more work.
 */
function documentText(row: BuildingSqlRow): string {
  const dates = `"as_of":${JSON.stringify(row.as_of)},"scored_at":${isoOrNull(row.scored_at)},"data_as_of":${isoOrNull(row.data_as_of)}}`;
  const text = row.document ?? JSON.stringify(unscoredBuildingDocument(row));
  const head = text.slice(0, text.lastIndexOf('}')).trimEnd();
  return `${head}${head.endsWith('{') ? '' : ','}${dates}`;
}

const isoOrNull = (value: Date | null): string => (value === null ? 'null' : `"${value.toISOString()}"`);

function withDigest(bbl: string, document: CachedDocument): BuildingDocumentRow {
  document.digest ??= digestOf(document.text);
  return { bbl, document: document.text, digest: document.digest };
}

/** JS strings take two bytes a character; the rest is the entry's own overhead. */
const documentBytes = (value: CachedDocument): number => value.text.length * 2 + 120;

/**
 * Reads building documents (prepared statements: parsed and planned once per connection). Documents
 * are kept in memory up to DOCUMENT_CACHE_MB and dropped at every change of `buildings` or
 * `building_scores`, announced by Postgres (see NotifiedCache); explanations are always read.
 */
@Injectable()
export class BuildingRepository {
  private readonly cache: NotifiedCache<CachedDocument>;

  constructor(
    @Inject(READ_POOL) private readonly pool: () => ReadPool,
    @Inject(CONFIG) config: AppConfig,
    changes: ChangeListener,
  ) {
    this.cache = new NotifiedCache<CachedDocument>(changes, [CHANGE_CHANNELS.buildingDocuments], {
      maxBytes: config.DOCUMENT_CACHE_MB * 1024 * 1024,
      sizeOf: documentBytes,
    });
  }

  async findOne(bbl: string, withExplanation: boolean): Promise<BuildingDocumentRow | null> {
    if (withExplanation) {
      const { rows } = await this.pool().query<BuildingSqlRow>({ ...LOOKUP_WITH_EXPLANATION, values: [bbl] });
      const row = rows[0];
      return row ? { bbl: row.bbl, document: documentText(row), explanation: row.explanation ?? 'null' } : null;
    }
    const document = await this.cache.getOrLoad(bbl, async () => {
      const { rows } = await this.pool().query<BuildingSqlRow>({ ...LOOKUP, values: [bbl] });
      return rows[0] && { text: documentText(rows[0]) };
    });
    return document ? withDigest(bbl, document) : null;
  }

  /** Documents of the BBLs that exist, by BBL: from memory where kept, the rest in one statement. */
  async findMany(bbls: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const missing: string[] = [];
    for (const bbl of bbls) {
      const cached = this.cache.get(bbl);
      if (cached) found.set(bbl, cached.text);
      else missing.push(bbl);
    }
    if (missing.length === 0) return found;
    const generation = this.cache.generation();
    const { rows } = await this.pool().query<BuildingSqlRow>({ ...BATCH, values: [missing] });
    for (const row of rows) {
      const text = documentText(row);
      found.set(row.bbl, text);
      this.cache.setIfUnchanged(generation, row.bbl, { text });
    }
    return found;
  }
}
