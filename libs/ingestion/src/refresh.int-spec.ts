import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { csvToSodaRows, getSource } from '@bhis/sources';
import { eventAttributes } from '@bhis/db';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { loadSource } from './load-source';
import { loadFile, publishedColumns, seedUniverseFor, SHARED_FIXTURES } from './testing/fixtures';
import { runMigrationStep } from './testing/migrations';
import { createRun, syncSourceCatalog } from '@bhis/runs';

const fixture = (name: string) => path.join(SHARED_FIXTURES, name);

/** How refreshes treat records already stored: partial pulls, refilings, records that vanish. */
describe('refreshing stored records', () => {
  let db: TestDatabase;
  let pool: Pool;
  const tmp = mkdtempSync(path.join(tmpdir(), 'bhis-refresh-'));

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await syncSourceCatalog(pool);
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const loadRows = async (source: string, rows: Record<string, unknown>[], observedOn = '2026-11-20') => {
    const runId = await createRun(pool, { source, trigger: 'test', input: 'soda' });
    return loadSource(pool, getSource(source), { kind: 'soda', rows: (async function* () { yield* rows; })() }, { runId, observedOn });
  };

  it('an incremental HPD complaints pull merges problems by problem id instead of replacing the list', async () => {
    const source = getSource('hpd_complaints');
    const file = fixture('hpd_complaints_and_problems.csv');
    await seedUniverseFor(pool, source, file);
    await loadFile(pool, source, file);
    type Problem = { problem_id: number; status?: string; status_date?: string };
    const problemsOf = (row: { attributes: Record<string, unknown>; record: Buffer | null }) =>
      eventAttributes('hpd_complaints', row.attributes, row.record)['problems'] as Problem[];
    const { rows } = await pool.query<{ source_record_id: string; attributes: Record<string, unknown>; record: Buffer | null }>(
      `SELECT source_record_id, attributes, record FROM events
        WHERE source = 'hpd_complaints' AND jsonb_array_length(attributes -> 'problems') > 1 ORDER BY source_record_id LIMIT 1`,
    );
    expect(rows).toHaveLength(1);
    const complaintId = rows[0].source_record_id;
    const problems = problemsOf(rows[0]);
    const changed = problems[0].problem_id;

    // the pull brings only the problem that changed (closed today)
    const all = csvToSodaRows(source.parts[0], readFileSync(file, 'utf8'), publishedColumns(source.parts[0].datasetId as string));
    const row = all.find((r) => r['problem_id'] === String(changed) && r['complaint_id'] === complaintId) as Record<string, string>;
    await loadRows('hpd_complaints', [{ ...row, problem_status: 'CLOSE', problem_status_date: '2026-11-19T00:00:00.000' }]);

    const after = await pool.query<{ attributes: Record<string, unknown>; record: Buffer | null }>(
      `SELECT attributes, record FROM events WHERE source = 'hpd_complaints' AND source_record_id = $1`,
      [complaintId],
    );
    const merged = problemsOf(after.rows[0]);
    expect(merged.map((p) => p.problem_id).sort()).toEqual(problems.map((p) => p.problem_id).sort());
    expect(merged.find((p) => p.problem_id === changed)).toMatchObject({ status: 'CLOSE', status_date: '2026-11-19' });
  });

  it('a refiled bedbug report replaces the earlier filing for the same period, and an older one never comes back', async () => {
    const source = getSource('hpd_bedbugs');
    const header = 'building_id,registration_id,borough,house_number,street_name,postcode,of_dwelling_units,infested_dwelling_unit_count,eradicated_unit_count,re_infested_dwelling_unit,filing_date,filing_period_start_date,filling_period_end_date,latitude,longitude,bin,bbl';
    const file = path.join(tmp, 'hpd_bedbugs.csv');
    writeFileSync(file, [
      header,
      '64708,200456,BRONX,2089,RYER AVENUE,10457,40,3,2,1,12/20/2023,11/30/2022,11/30/2023,40.853497,-73.899567,2013708,2031560001',
      '64708,200456,BRONX,2089,RYER AVENUE,10457,40,5,2,1,01/15/2024,11/30/2022,11/30/2023,40.853497,-73.899567,2013708,2031560001',
      '64708,200456,BRONX,2089,RYER AVENUE,10457,40,4,2,1,01/05/2024,11/30/2022,11/30/2023,40.853497,-73.899567,2013708,2031560001',
      '',
    ].join('\n'));
    await seedUniverseFor(pool, source, file);
    await loadFile(pool, source, file);
    const stored = async () => {
      const { rows } = await pool.query(`SELECT to_char(occurred_on, 'YYYY-MM-DD') AS filed, attributes, record FROM events WHERE source = 'hpd_bedbugs' AND source_record_id = '64708:11/30/2022'`);
      return { rows: rows.map((r) => ({ filed: r.filed, infested: String(eventAttributes('hpd_bedbugs', r.attributes, r.record)['infested_units']) })) };
    };
    expect((await stored()).rows).toEqual([{ filed: '2024-01-15', infested: '5' }]);

    // a pull that brings the earlier filing again does not undo the refiling
    await loadRows('hpd_bedbugs', [{ building_id: '64708', of_dwelling_units: '40', infested_dwelling_unit_count: '3', filing_date: '2023-12-20T00:00:00.000', filing_period_start_date: '2022-11-30T00:00:00.000', bbl: '2031560001' }]);
    expect((await stored()).rows).toEqual([{ filed: '2024-01-15', infested: '5' }]);
  });

  it('a whole-replace set closes the records its new export no longer carries, dated, and takes them back if they return', async () => {
    const source = getSource('hpd_aep');
    expect(source.refresh).toBe('whole_replace');
    const file = fixture('hpd_aep.csv');
    await seedUniverseFor(pool, source, file);
    await loadFile(pool, source, file);
    const lines = readFileSync(file, 'utf8').replace(/\r/g, '').split('\n').filter(Boolean);
    const gone = await pool.query<{ source_record_id: string }>(`SELECT source_record_id FROM events WHERE source = 'hpd_aep' ORDER BY source_record_id LIMIT 1`);
    const goneId = gone.rows[0].source_record_id;
    const building = goneId.split(':')[0];
    const sameBuilding = await pool.query(`SELECT count(*)::int AS n FROM events WHERE source = 'hpd_aep' AND source_record_id LIKE $1`, [`${building}:%`]);
    const shorter = path.join(tmp, 'hpd_aep.csv');
    writeFileSync(shorter, [lines[0], ...lines.slice(1).filter((line) => !line.startsWith(`${building},`))].join('\n'));

    const load = async (csv: string, observedOn: string) => {
      const runId = await createRun(pool, { source: 'hpd_aep', trigger: 'test', input: csv });
      return loadSource(pool, source, { kind: 'csv', stream: createReadStream(csv), totalBytes: null }, { runId, observedOn, closeVanished: true });
    };
    const counts = await load(shorter, '2026-11-20');
    expect(counts.vanished).toBe(sameBuilding.rows[0].n);
    const row = async () =>
      (await pool.query(`SELECT status, to_char(closed_on, 'YYYY-MM-DD') AS closed_on, scoring_excluded, attributes ->> 'vanished_on' AS vanished_on FROM events WHERE source = 'hpd_aep' AND source_record_id = $1`, [goneId])).rows[0];
    expect(await row()).toMatchObject({ scoring_excluded: true, vanished_on: '2026-11-20' });
    expect((await row()).status).not.toBe('open');
    const others = await pool.query(`SELECT count(*)::int AS n FROM events WHERE source = 'hpd_aep' AND attributes ? 'vanished_on'`);
    expect(others.rows[0].n).toBe(sameBuilding.rows[0].n);
    // a second run without it changes nothing more
    expect((await load(shorter, '2026-11-21')).vanished).toBe(0);
    // it comes back: the record is as published again
    await load(file, '2026-11-22');
    expect(await row()).toMatchObject({ scoring_excluded: false, vanished_on: null });
  });

  const loadWhole = async (source: string, csv: string, observedOn: string, closeVanished = true) => {
    const runId = await createRun(pool, { source, trigger: 'test', input: csv });
    return loadSource(pool, getSource(source), { kind: 'csv', stream: createReadStream(csv), totalBytes: null }, { runId, observedOn, closeVanished });
  };
  const withoutLines = (name: string, lines: string[], drop: (line: string) => boolean) => {
    const file = path.join(tmp, name);
    writeFileSync(file, [lines[0], ...lines.slice(1).filter((line) => !drop(line))].join('\n'));
    return file;
  };

  it('registrations and contacts a whole export no longer carries stop counting for the building, dated, until they return', async () => {
    const registrations = fixture('hpd_registrations.csv');
    await seedUniverseFor(pool, getSource('hpd_registrations'), registrations);
    await loadWhole('hpd_registrations', registrations, '2026-11-01');
    const { rows: [current] } = await pool.query<{ bbl: string; registration_id: number }>(
      `SELECT bbl, registration_id FROM buildings WHERE registration_id IS NOT NULL ORDER BY bbl LIMIT 1`,
    );
    const contactsHeader = 'RegistrationContactID,RegistrationID,Type,ContactDescription,CorporationName,Title,FirstName,MiddleInitial,LastName,BusinessHouseNumber,BusinessStreetName,BusinessApartment,BusinessCity,BusinessState,BusinessZip';
    const contactLines = [
      contactsHeader,
      `900001,${current.registration_id},CorporateOwner,,HARBOR HOLDINGS LLC,,,,,1,MAIN ST,,NEW YORK,NY,10001`,
      `900002,${current.registration_id},IndividualOwner,,,,JANE,,ROE,2,MAIN ST,,NEW YORK,NY,10001`,
    ];
    const contacts = path.join(tmp, 'hpd_registration_contacts.csv');
    writeFileSync(contacts, contactLines.join('\n'));
    await loadWhole('hpd_registration_contacts', contacts, '2026-11-01');
    const building = async () =>
      (await pool.query(`SELECT registration_id, owner_name FROM buildings WHERE bbl = $1`, [current.bbl])).rows[0];
    expect(await building()).toMatchObject({ registration_id: current.registration_id, owner_name: 'HARBOR HOLDINGS LLC' });

    // the owner of record leaves the contacts export: the next owner named counts
    const fewerContacts = withoutLines('contacts-fewer.csv', contactLines, (line) => line.startsWith('900001,'));
    expect((await loadWhole('hpd_registration_contacts', fewerContacts, '2026-11-20')).vanished).toBe(1);
    expect(await building()).toMatchObject({ owner_name: 'JANE ROE' });
    const contact = await pool.query(`SELECT to_char(vanished_on, 'YYYY-MM-DD') AS vanished_on FROM hpd_registration_contacts WHERE contact_id = 900001`);
    expect(contact.rows[0].vanished_on).toBe('2026-11-20');

    // the building's registration leaves the registrations export: a partial load closes nothing
    const lines = readFileSync(registrations, 'utf8').replace(/\r/g, '').split('\n').filter(Boolean);
    const fewer = withoutLines('registrations-fewer.csv', lines, (line) => line.startsWith(`${current.registration_id},`));
    expect((await loadWhole('hpd_registrations', fewer, '2026-11-20', false)).vanished).toBe(0);
    expect(await building()).toMatchObject({ registration_id: current.registration_id });
    // the whole export: it stops being the building's registration, and its owners stop being shown
    // the registration and the registration event it gave
    expect((await loadWhole('hpd_registrations', fewer, '2026-11-20')).vanished).toBe(2);
    const registration = await pool.query(`SELECT to_char(vanished_on, 'YYYY-MM-DD') AS vanished_on FROM hpd_registrations WHERE registration_id = $1`, [current.registration_id]);
    expect(registration.rows[0].vanished_on).toBe('2026-11-20');
    expect((await building()).registration_id).not.toBe(current.registration_id);
    expect((await building()).owner_name).not.toBe('JANE ROE');

    // both come back
    await loadWhole('hpd_registrations', registrations, '2026-11-22');
    await loadWhole('hpd_registration_contacts', contacts, '2026-11-22');
    expect(await building()).toMatchObject({ registration_id: current.registration_id, owner_name: 'HARBOR HOLDINGS LLC' });
    const marks = await pool.query(
      `SELECT (SELECT count(*)::int FROM hpd_registrations WHERE vanished_on IS NOT NULL) AS r,
              (SELECT count(*)::int FROM hpd_registration_contacts WHERE vanished_on IS NOT NULL) AS c`,
    );
    expect(marks.rows[0]).toEqual({ r: 0, c: 0 });
  });

  it('a lot the whole HPD jurisdiction export no longer carries leaves HPD jurisdiction, dated, until it returns', async () => {
    const file = fixture('hpd_jurisdiction.csv');
    await loadWhole('hpd_jurisdiction', file, '2026-11-01');
    const { rows: [lot] } = await pool.query<{ bbl: string; ids: number[] }>(
      `SELECT bbl, hpd_building_ids AS ids FROM buildings WHERE in_hpd_jurisdiction ORDER BY bbl LIMIT 1`,
    );
    const lines = readFileSync(file, 'utf8').replace(/\r/g, '').split('\n').filter(Boolean);
    const fewer = withoutLines('jurisdiction-fewer.csv', lines, (line) => lot.ids.map(String).includes(line.split(',')[0].replace(/"/g, '')));
    expect((await loadWhole('hpd_jurisdiction', fewer, '2026-11-20')).vanished).toBe(1);
    const state = async () =>
      (await pool.query(`SELECT in_hpd_jurisdiction, facts ->> 'hpd_jurisdiction_vanished_on' AS vanished_on FROM buildings WHERE bbl = $1`, [lot.bbl])).rows[0];
    expect(await state()).toEqual({ in_hpd_jurisdiction: false, vanished_on: '2026-11-20' });
    await loadWhole('hpd_jurisdiction', file, '2026-11-22');
    expect(await state()).toEqual({ in_hpd_jurisdiction: true, vanished_on: null });
  });

  it('stored rodent inspections keyed by the old ticket id, then by job progress, take the key every layout now derives', async () => {
    const source = getSource('dohmh_rodents');
    const file = fixture('dohmh_rodent_inspections.csv');
    await seedUniverseFor(pool, source, file);
    await loadFile(pool, source, file);
    // as stored before the export dropped its ticket id, and before attributes were compacted
    await runMigrationStep(pool, 'CompactEventRecords1763701900000', 'down');
    await pool.query(
      `UPDATE events SET source_record_id = attributes ->> 'job_ticket_id', attributes = attributes - 'job_ticket_id' WHERE source = 'dohmh_rodents'`,
    );
    await runMigrationStep(pool, 'RodentInspectionKeys1763701500000', 'up');
    await runMigrationStep(pool, 'CompactEventRecords1763701900000', 'up');
    const stored = async () => {
      const { rows } = await pool.query(`SELECT source_record_id, attributes, record FROM events WHERE source = 'dohmh_rodents' ORDER BY 1`);
      expect(rows.every((r) => r.record !== null && !('job_ticket_id' in r.attributes))).toBe(true);
      return rows.map((r) => ({ source_record_id: r.source_record_id, ticket: eventAttributes('dohmh_rodents', r.attributes, r.record)['job_ticket_id'] }));
    };
    expect(await stored()).toContainEqual({ source_record_id: 'PC8122655:1', ticket: '13661515' });
    // then the 2026 key (job, inspection type, day): JOB_PROGRESS is not in the 2026 layout
    await runMigrationStep(pool, 'RodentVisitKeys1763704400000', 'up');
    expect(await stored()).toContainEqual({ source_record_id: 'PC8122655:INITIAL:2023-06-07', ticket: '13661515' });
    const again = await loadFile(pool, source, file);
    expect(again.counts.events.inserted).toBe(0);
  });

  /** Runs a migration's `down`, checks what it put back, runs `up` again: the rows must be what the load wrote. */
  const downAndUp = async (name: string, check: (rows: { attributes: string; record: Buffer | null; description: string | null }[]) => void) => {
    const snapshot = async () =>
      (await pool.query(`SELECT source, source_record_id, attributes::text AS attributes, record, description FROM events ORDER BY 1, 2`)).rows;
    const loaded = await snapshot();
    await runMigrationStep(pool, name, 'down');
    check(await snapshot());
    await runMigrationStep(pool, name, 'up');
    expect(await snapshot()).toEqual(loaded);
  };

  it('stored complaints whose problems were kept whole are compacted by the migration, exactly as a load writes them', async () => {
    const source = getSource('hpd_complaints');
    const file = fixture('hpd_complaints_and_problems.csv');
    await seedUniverseFor(pool, source, file);
    await loadFile(pool, source, file);
    const compact = await pool.query(`SELECT 1 FROM events WHERE source = 'hpd_complaints' AND attributes::text LIKE '%"problems": ["%'`);
    expect(compact.rowCount).toBeGreaterThan(0);
    await downAndUp('CompactComplaintProblems1763702100000', (rows) => {
      expect(rows.some((r) => r.attributes.includes('"problem_id"'))).toBe(true);
      expect(rows.every((r) => !r.attributes.includes('"problems": ["'))).toBe(true);
    });
  });

  it('stored descriptions move into the records by the migration, exactly as a load writes them', async () => {
    // only rows of a load: the tests above left rows converted by older migrations
    await pool.query('DELETE FROM events');
    await pool.query(`UPDATE sources SET last_run_id = NULL`);
    for (const [key, name] of [['hpd_violations', 'hpd_violations.csv'], ['dob_complaints', 'dob_complaints.csv']]) {
      const file = fixture(name);
      await seedUniverseFor(pool, getSource(key), file);
      await loadFile(pool, getSource(key), file);
    }
    const loaded = await pool.query(`SELECT count(*)::int AS n, count(description)::int AS described FROM events WHERE record IS NOT NULL`);
    expect(loaded.rows[0].n).toBeGreaterThan(0);
    expect(loaded.rows[0].described).toBe(0);
    await downAndUp('DescriptionsInRecords1763702200000', (rows) => {
      const recorded = rows.filter((r) => r.record !== null);
      expect(recorded.filter((r) => r.description !== null).length).toBeGreaterThan(recorded.length / 2);
      expect(recorded.every((r) => (r.record as Buffer)[0] <= 1)).toBe(true);
    });
  });
});
