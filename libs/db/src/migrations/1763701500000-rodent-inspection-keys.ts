import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rodent inspections are keyed `JOB_ID:JOB_PROGRESS` since the export dropped its ticket id
 * (docs/sources.md): stored inspections keyed by the ticket id take the new key, so a reload updates
 * them instead of adding a copy. Rows whose new key is already taken keep theirs.
 */
export class RodentInspectionKeys1763701500000 implements MigrationInterface {
  name = 'RodentInspectionKeys1763701500000';

  async up(q: QueryRunner): Promise<void> {
    const hasAttributes = await q.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'events' AND column_name = 'attributes' AND table_schema = current_schema()`,
    );
    if (hasAttributes.length === 0) return;
    await q.query(`
      UPDATE events e
         SET source_record_id = upper(e.attributes ->> 'job_id') || ':' || (e.attributes ->> 'job_progress'),
             attributes = e.attributes || jsonb_build_object('job_ticket_id', e.source_record_id)
       WHERE e.source = 'dohmh_rodents' AND e.event_type = 'rodent_inspection'
         AND e.attributes ? 'job_id' AND e.attributes ? 'job_progress'
         AND e.source_record_id <> upper(e.attributes ->> 'job_id') || ':' || (e.attributes ->> 'job_progress')
         AND NOT EXISTS (
           SELECT 1 FROM events o
            WHERE o.bbl = e.bbl AND o.source = e.source AND o.event_type = e.event_type
              AND o.source_record_id = upper(e.attributes ->> 'job_id') || ':' || (e.attributes ->> 'job_progress'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE events SET source_record_id = attributes ->> 'job_ticket_id'
       WHERE source = 'dohmh_rodents' AND event_type = 'rodent_inspection' AND attributes ? 'job_ticket_id'`);
  }
}
