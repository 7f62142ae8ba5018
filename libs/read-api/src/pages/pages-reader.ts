import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STATUSES, GRADES } from '@bhis/domain';
import { readRecord, type ReadPool } from '@bhis/db';
import type { BuildingDocument, Explanation, UnscoredBuildingDocument } from '@bhis/scoring';
import { BuildingRepository } from '../buildings/building.repository';
import { parseEventsParams } from '../events/events-params';
import { EventRow, EventsRepository } from '../events/events.repository';
import { sourceUrl } from '../events/source-url';
import { PortfolioBuildingRow, PortfolioRepository } from '../portfolios/portfolio.repository';
import { CursorCodec, CursorPosition } from '../shared/cursor';
import { parseVocabularyList } from '../shared/query-params';
import { READ_POOL } from '../shared/tokens';
import { TrajectoryRepository } from '../trajectory/trajectory.repository';

/** A building as the pages show it: the API's document and explanation, with the dates of its score. */
export interface PagesBuilding {
  document: BuildingDocument | UnscoredBuildingDocument;
  explanation: Explanation | null;
  /** The date the score's data runs to (`building_scores.as_of`), null when not scored. */
  asOf: string | null;
  /** When the score was written, ISO 8601, null when not scored. */
  scoredAt: string | null;
}

/** A record as the pages show it: the fields of the events API they need. */
export type PagesEvent = Pick<EventRow, 'id' | 'source' | 'category' | 'severity' | 'event_type' | 'status' | 'occurred_on' | 'closed_on' | 'description'> & {
  source_url: string | null;
};

/** The filters of the record history page, as its query string gives them. */
export interface PagesHistoryQuery {
  source?: string;
  status?: string;
  since?: string;
  until?: string;
  cursor?: string;
  limit?: string;
}

export interface PagesHistory {
  events: PagesEvent[];
  /** The cursor of the next page, null on the last. */
  next: string | null;
}

export interface PagesPortfolio {
  id: string;
  buildings: number;
  units: number;
  grades: Record<string, number>;
  worst: { bbl: string; address: string; units: number; grade: string | null; total_score: number | null }[];
  caution: string | null;
}

export interface PagesTrajectoryPoint {
  as_of: string;
  scorer_id: string;
  total_score: number;
  grade: string;
}

const SCORE_DATES = {
  name: 'pages_score_dates',
  text: `SELECT as_of::text AS as_of, updated_at FROM building_scores WHERE bbl = $1::bpchar`,
};

const HISTORY = 'web-history';
/** Cursors of the pages are signed for the pages, never for a key (keys' ids are UUIDs). */
const HOLDER = 'pages';
/** Pages of the events service one history page reads at most while it filters by status. */
const STATUS_SCAN_PAGES = 20;
const SCAN_PAGE = 100;

function pageEvent(bbl: string, row: EventRow): PagesEvent {
  const { id, source, category, severity, event_type, status, occurred_on, closed_on } = row;
  // as the events API: the description the row has, else the one of its compact record
  const description = row.description ?? (row.record ? (readRecord(source, row.record)?.description ?? null) : null);
  return { id, source, category, severity, event_type, status, occurred_on, closed_on, description, source_url: sourceUrl({ source, bbl, hpdBuildingId: row.hpd_building_id }) };
}

function worst(row: PortfolioBuildingRow): PagesPortfolio['worst'][number] {
  return { bbl: row.bbl, address: row.address, units: row.units, grade: row.grade?.trim() ?? null, total_score: row.total_score };
}

/**
 * What the server-rendered pages read, in-process and through the same repositories, parameter rules
 * and cursors as the read endpoints (so a page shows what the API answers). Invalid parameters throw
 * the API's ApiError (400), which the pages show as a page.
 */
@Injectable()
export class PagesReader {
  constructor(
    private readonly buildings: BuildingRepository,
    private readonly eventsRepository: EventsRepository,
    private readonly trajectoryRepository: TrajectoryRepository,
    private readonly portfolios: PortfolioRepository,
    private readonly cursors: CursorCodec,
    @Inject(READ_POOL) private readonly pool: () => ReadPool,
  ) {}

  /** The building with its explanation, as `GET /buildings/{bbl}?include=explanation`; null when not in the data set. */
  async building(bbl: string): Promise<PagesBuilding | null> {
    const [row, dates] = await Promise.all([
      this.buildings.findOne(bbl, true),
      this.pool().query<{ as_of: string; updated_at: Date }>({ ...SCORE_DATES, values: [bbl] }),
    ]);
    if (!row) return null;
    const scored = dates.rows[0];
    return {
      document: JSON.parse(row.document) as PagesBuilding['document'],
      explanation: JSON.parse(row.explanation ?? 'null') as Explanation | null,
      asOf: scored?.as_of ?? null,
      scoredAt: scored ? new Date(scored.updated_at).toISOString() : null,
    };
  }

  async trajectory(bbl: string): Promise<PagesTrajectoryPoint[]> {
    const page = await this.trajectoryRepository.page(bbl, null, 100);
    if (!page.found) return [];
    return page.rows.map((row) => ({ as_of: row.as_of, scorer_id: row.scorer_id, total_score: row.total_score, grade: row.grade.trim() }));
  }

  /**
   * A page of the building's records, newest first, as `GET /buildings/{bbl}/events` with the same
   * filters; the status filter is applied to the events the service reads (at most
   * STATUS_SCAN_PAGES pages of them), so a page may hold fewer records than asked, with a next page.
   */
  async history(bbl: string, query: PagesHistoryQuery): Promise<PagesHistory | null> {
    const params = parseEventsParams({ source: query.source, since: query.since, until: query.until, limit: query.limit });
    const statuses = parseVocabularyList('status', query.status, EVENT_STATUSES, (v) => v.toLowerCase()) ?? null;
    const filtersKey = JSON.stringify([bbl, params.filters, statuses, params.limit]);
    let position: CursorPosition | null = query.cursor ? this.cursors.decode(HISTORY, HOLDER, filtersKey, query.cursor, ['date?', 'digits']) : null;
    if (!statuses) {
      const page = await this.eventsRepository.page(bbl, params.filters, position, params.limit);
      if (!page.found) return null;
      return { events: page.rows.map((row) => pageEvent(bbl, row)), next: page.next && this.cursors.encode(HISTORY, HOLDER, filtersKey, page.next) };
    }
    const events: PagesEvent[] = [];
    for (let read = 0; read < STATUS_SCAN_PAGES; read++) {
      const page = await this.eventsRepository.page(bbl, params.filters, position, SCAN_PAGE);
      if (!page.found) return null;
      for (const row of page.rows) {
        position = [row.occurred_on, row.id];
        if (row.status === null || !statuses.includes(row.status)) continue;
        events.push(pageEvent(bbl, row));
        if (events.length === params.limit) return { events, next: this.cursors.encode(HISTORY, HOLDER, filtersKey, position) };
      }
      if (!page.next) return { events, next: null };
      position = page.next;
    }
    return { events, next: position && this.cursors.encode(HISTORY, HOLDER, filtersKey, position) };
  }

  /** The owner's portfolio of the building, as `GET /buildings/{bbl}/portfolio` summarizes it; null when it has none. */
  async portfolio(bbl: string): Promise<PagesPortfolio | null> {
    const found = await this.portfolios.byBbl(bbl);
    if (!found.portfolio) return null;
    const summary = await this.portfolios.summary(found.portfolio.id);
    const grades: Record<string, number> = Object.fromEntries([...GRADES, 'ungraded'].map((g) => [g, 0]));
    let units = 0;
    for (const row of summary.grades) {
      grades[row.grade?.trim() ?? 'ungraded'] = row.buildings;
      units += row.units;
    }
    return { id: found.portfolio.id, buildings: found.portfolio.buildings, units, grades, worst: summary.worst.map(worst), caution: found.portfolio.caution };
  }
}

