import { MigrationInterface, QueryRunner } from 'typeorm';

/** The event types of the area reporting propensity (libs/score-runner/src/feature-queries.ts) when this index was made. */
const COMPLAINT_TYPES = ['hpd_complaint', 'complaint_311'];
const CONDITION_TYPES = ['hpd_violation', 'dob_violation', 'ecb_violation', 'dob_safety_violation', 'emergency_repair_omo', 'emergency_repair_hwo', 'hpd_vacate_order', 'dob_vacate_order'];
const quoted = (types: string[]) => types.map((t) => `'${t}'`).join(', ');

/**
 * Every scoring run starts by reading each ZIP code's complaints and recorded conditions of the last
 * year (the reporting propensity). The complaints index served it until conditions joined the
 * complaints: since then the read scanned all of `events`, ~40 s of the whole city's 36 GB before a
 * run of a few buildings could start. This index holds what the read needs (date, BBL and type of the
 * events it counts), so the read stays within the last year's entries.
 */
export class AreaReportingIndex1763702900000 implements MigrationInterface {
  name = 'AreaReportingIndex1763702900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(`DELETE FROM deferred_event_indexes WHERE name = 'events_complaints_idx'`);
    await q.query(`DROP INDEX IF EXISTS events_complaints_idx`);
    await q.query(
      `CREATE INDEX events_area_reporting_idx ON events (occurred_on, bbl, event_type)
        WHERE NOT scoring_excluded AND event_type IN (${quoted([...COMPLAINT_TYPES, ...CONDITION_TYPES])})`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM deferred_event_indexes WHERE name = 'events_area_reporting_idx'`);
    await q.query(`DROP INDEX IF EXISTS events_area_reporting_idx`);
    await q.query(`CREATE INDEX events_complaints_idx ON events (occurred_on) WHERE event_type IN (${quoted(COMPLAINT_TYPES)}) AND NOT scoring_excluded`);
  }
}
