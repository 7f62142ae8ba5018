import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tables the ingest pipeline keeps beside buildings and events. */
export class IngestSupport1763700200000 implements MigrationInterface {
  name = 'IngestSupport1763700200000';

  async up(q: QueryRunner): Promise<void> {
    // HPD multiple dwelling registrations: registration id -> BBL (contacts and some sets join through it)
    await q.query(`
      CREATE TABLE hpd_registrations (
        registration_id integer PRIMARY KEY,
        bbl char(10) NOT NULL,
        bin integer,
        hpd_building_id integer,
        last_registration_date date,
        registration_end_date date,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX hpd_registrations_bbl_idx ON hpd_registrations (bbl)`);
    await q.query(`
      CREATE TABLE hpd_registration_contacts (
        contact_id integer PRIMARY KEY,
        registration_id integer NOT NULL,
        contact_type text,
        name text,
        business_address text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX hpd_registration_contacts_reg_idx ON hpd_registration_contacts (registration_id)`);
    // 311 service requests that are also HPD complaints: counted once (as the HPD complaint)
    await q.query(`
      CREATE TABLE complaint_311_links (
        unique_key text PRIMARY KEY,
        hpd_complaint_id text NOT NULL,
        bbl char(10) NOT NULL
      )`);
    // buildings whose events changed since the last scoring run (incremental rescoring)
    await q.query(`
      CREATE TABLE dirty_buildings (
        bbl char(10) PRIMARY KEY,
        marked_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['dirty_buildings', 'complaint_311_links', 'hpd_registration_contacts', 'hpd_registrations']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
