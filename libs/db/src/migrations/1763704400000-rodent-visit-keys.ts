import { MigrationInterface, QueryRunner } from 'typeorm';
import { eventAttributes } from '../event-record';

const BATCH = 5000;

interface StoredRodentRow {
  bbl: string;
  id: string;
  source_record_id: string;
  occurred_on: string | null;
  attributes: Record<string, unknown>;
  record: Buffer | null;
}

/**
 * Rodent inspections were keyed `JOB_ID:JOB_PROGRESS`, a column the 2026 export no longer shows;
 * they are keyed `JOB_ID:INSPECTION_TYPE:day` now, from columns every layout has
 * (libs/sources/src/definitions/dohmh-rodents.ts). Stored inspections take the new key, so a reload
 * updates them instead of adding a copy. Where two stored rows would take the same key, or the key is
 * already taken, the later rows keep theirs.
 */
export class RodentVisitKeys1763704400000 implements MigrationInterface {
  name = 'RodentVisitKeys1763704400000';

  async up(q: QueryRunner): Promise<void> {
    await this.rekey(q, (row, attributes) => {
      const job = attributes['job_id'];
      const type = attributes['inspection_type'];
      if (typeof job !== 'string' || typeof type !== 'string' || !row.occurred_on) return null;
      return `${job.trim().toUpperCase()}:${type.trim().toUpperCase()}:${row.occurred_on}`;
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await this.rekey(q, (_row, attributes) => {
      const job = attributes['job_id'];
      const progress = attributes['job_progress'];
      return typeof job === 'string' && typeof progress === 'number' ? `${job.trim().toUpperCase()}:${progress}` : null;
    });
  }

  private async rekey(q: QueryRunner, keyOf: (row: StoredRodentRow, attributes: Record<string, unknown>) => string | null): Promise<void> {
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(`CREATE TEMP TABLE rekeyed_events (bbl char(10) NOT NULL, id bigint NOT NULL, source_record_id text NOT NULL) ON COMMIT DROP`);
    await q.query(
      `DECLARE stored_rodents NO SCROLL CURSOR FOR
         SELECT bbl, id, source_record_id, occurred_on::text AS occurred_on, attributes, record FROM events
          WHERE source = 'dohmh_rodents' AND event_type = 'rodent_inspection'`,
    );
    for (;;) {
      const rows = (await q.query(`FETCH ${BATCH} FROM stored_rodents`)) as StoredRodentRow[];
      if (rows.length === 0) break;
      const changed = rows.flatMap((row) => {
        const key = keyOf(row, eventAttributes('dohmh_rodents', row.attributes, row.record));
        return key !== null && key !== row.source_record_id ? [{ row, key }] : [];
      });
      if (changed.length === 0) continue;
      await q.query(`INSERT INTO rekeyed_events SELECT * FROM unnest($1::char(10)[], $2::bigint[], $3::text[])`, [
        changed.map((c) => c.row.bbl),
        changed.map((c) => c.row.id),
        changed.map((c) => c.key),
      ]);
    }
    await q.query(`CLOSE stored_rodents`);
    // one row per new key and lot: the first stored keeps the key, the others their old one
    await q.query(`DELETE FROM rekeyed_events r USING rekeyed_events s WHERE r.bbl = s.bbl AND r.source_record_id = s.source_record_id AND r.id > s.id`);
    await q.query(
      `UPDATE events e SET source_record_id = r.source_record_id
         FROM rekeyed_events r
        WHERE e.bbl = r.bbl AND e.id = r.id
          AND NOT EXISTS (
            SELECT 1 FROM events o
             WHERE o.bbl = e.bbl AND o.source = e.source AND o.event_type = e.event_type AND o.source_record_id = r.source_record_id)`,
    );
    await q.query(`DROP TABLE rekeyed_events`);
  }
}
