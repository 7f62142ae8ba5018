import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The five codes of an event (source, event type, category, severity, status) were text: ~48 bytes
 * of every row and ~26 of every entry of the unique record key index. As enums they take 4 bytes
 * each (docs/adr/0011-event-storage-and-load-path.md). Labels are declared in byte order, so an
 * enum sorts as its text did under the C collation; a label added later goes where it sorts
 * (`ALTER TYPE ... ADD VALUE '...' BEFORE '...'`), and `libs/ingestion/src/event-storage.int-spec.ts`
 * checks that the labels are the vocabulary of `@bhis/domain` and the source registry.
 *
 * A value that is not a label fails where it is written (the COPY into staging, an INSERT), naming
 * the type and the value. Converting rewrites `events` and rebuilds its indexes.
 */
export const EVENT_CODE_TYPES = {
  source: {
    type: 'event_source',
    labels: [
      'dob_complaints', 'dob_ecb_violations', 'dob_facades', 'dob_job_filings', 'dob_now_job_filings', 'dob_safety_violations',
      'dob_vacate_orders', 'dob_violations', 'dof_tax_liens', 'dohmh_rodents', 'evictions', 'fdny_vacates', 'hpd_aep', 'hpd_bedbugs',
      'hpd_complaints', 'hpd_emergency_repairs', 'hpd_jurisdiction', 'hpd_litigations', 'hpd_registration_contacts', 'hpd_registrations',
      'hpd_underlying_conditions', 'hpd_vacate_orders', 'hpd_violations', 'nyc311', 'pluto',
    ],
  },
  event_type: {
    type: 'event_type',
    labels: [
      'aep_discharged', 'aep_enrollment', 'bedbug_filing', 'complaint_311', 'dob_complaint', 'dob_job_filing', 'dob_now_job_filing',
      'dob_safety_violation', 'dob_vacate_order', 'dob_violation', 'dob_violation_resolved', 'ecb_violation', 'ecb_violation_resolved',
      'emergency_repair_hwo', 'emergency_repair_omo', 'eviction', 'facade_filing', 'fdny_vacate', 'hpd_complaint', 'hpd_complaint_closed',
      'hpd_litigation', 'hpd_vacate_order', 'hpd_vacate_rescinded', 'hpd_violation', 'hpd_violation_closed', 'hpd_violation_reopened',
      'registration_filed', 'rodent_inspection', 'tax_lien_sale_listing', 'ucp_order',
    ],
  },
  category: {
    type: 'event_category',
    labels: [
      'administrative', 'boiler', 'construction', 'electrical', 'elevator', 'emergency_repair', 'enforcement_program', 'eviction', 'facade',
      'financial', 'fire', 'fire_safety', 'gas', 'habitability', 'heat_hot_water', 'illegal_occupancy', 'lead_paint', 'litigation', 'mold',
      'other', 'permit', 'pests', 'plumbing', 'registration', 'sanitation', 'security', 'structural', 'vacate', 'water_damage',
    ],
  },
  severity: { type: 'event_severity', labels: ['critical', 'high', 'info', 'low', 'medium'] },
  status: { type: 'event_status', labels: ['active', 'closed', 'discharged', 'dismissed', 'filed', 'info', 'open', 'rescinded', 'resolved'] },
} as const;

const COLUMNS = Object.entries(EVENT_CODE_TYPES);
const label = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** The partial index of complaints names two event types: it is dropped and made again with the column's type. */
const COMPLAINTS_INDEX = `CREATE INDEX events_complaints_idx ON events (occurred_on) WHERE event_type IN ('hpd_complaint', 'complaint_311') AND NOT scoring_excluded`;

export class EventCodeTypes1763702400000 implements MigrationInterface {
  name = 'EventCodeTypes1763702400000';

  async up(q: QueryRunner): Promise<void> {
    // the whole events table is rewritten: longer than the pool's statement timeout allows
    await q.query(`SET LOCAL statement_timeout = 0`);
    for (const [, { type, labels }] of COLUMNS) await q.query(`CREATE TYPE ${type} AS ENUM (${labels.map(label).join(', ')})`);
    await q.query(`DROP INDEX events_complaints_idx`);
    await q.query(`ALTER TABLE events ${COLUMNS.map(([column, { type }]) => `ALTER COLUMN ${column} TYPE ${type} USING ${column}::${type}`).join(', ')}`);
    await q.query(COMPLAINTS_INDEX);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(`DROP INDEX events_complaints_idx`);
    await q.query(`ALTER TABLE events ${COLUMNS.map(([column]) => `ALTER COLUMN ${column} TYPE text USING ${column}::text`).join(', ')}`);
    await q.query(COMPLAINTS_INDEX);
    for (const [, { type }] of COLUMNS) await q.query(`DROP TYPE ${type}`);
  }
}
