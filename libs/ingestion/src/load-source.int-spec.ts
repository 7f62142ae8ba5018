import { createReadStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { eventAttributes } from '@bhis/db';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Pool, PoolClient } from 'pg';
import type { NormalizedEvent } from '@bhis/domain';
import { getSource, HeaderMismatchError, parseSource } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { fixtureFiles, loadFile, LOCAL_FIXTURES, seedUniverseFor, SHARED_FIXTURES } from './testing/fixtures';
import { syncSourceCatalog } from '@bhis/runs';
import { anyRecordStored, comparedSql, markStored311Sql, withIndexProbes } from './merge-events';
import { stagingThreads } from './staging-thread-pool';

/** `work` on a database of its own, with the source catalog and nothing else; dropped after. */
async function withEmptyDatabase(work: (pool: Pool) => Promise<void>): Promise<void> {
  const empty = await createTestDatabase();
  const pool = new Pool({ connectionString: empty.url, max: 4 });
  try {
    await syncSourceCatalog(pool);
    await work(pool);
  } finally {
    await pool.end();
    await empty.drop();
  }
}

describe('loading every source from its real file format', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 6 });
    await syncSourceCatalog(pool);
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const files = fixtureFiles();

  it('has a file for each of the 25 sources', () => {
    expect(new Set(files.map((f) => f.source.key)).size).toBe(25);
  });

  it.each(files.map((f) => [path.basename(f.file), f] as const))('%s: every row is accounted for, and a re-run changes nothing', async (_name, { file, source }) => {
    await seedUniverseFor(pool, source, file);
    const { runId, counts } = await loadFile(pool, source, file);
    expect(counts.read).toBeGreaterThan(0);
    expect(counts.read).toBe(counts.loaded + counts.quarantined + counts.out_of_scope);
    const rejected = await pool.query('SELECT count(*)::int AS n FROM rejected_rows WHERE run_id = $1', [runId]);
    expect(rejected.rows[0].n).toBe(counts.quarantined);
    if (source.produces.events.length > 0 && counts.loaded > 0) {
      const stored = await pool.query('SELECT count(*)::int AS n FROM events WHERE source = $1', [source.key]);
      expect(stored.rows[0].n).toBeGreaterThan(0);
    }
    const again = await loadFile(pool, source, file);
    expect(again.counts.events.inserted).toBe(0);
    expect(again.counts.events.updated).toBe(0);
    expect(again.counts.events.status_changes).toBe(0);
    expect(again.counts.read).toBe(counts.read);
    const status = await pool.query('SELECT status, last_refreshed_at FROM sources WHERE key = $1', [source.key]);
    expect(status.rows[0]).toEqual({ status: 'ok', last_refreshed_at: expect.any(Date) });
  });

  it('staged every file above in one staging thread, started for the first and kept for the others', () => {
    expect(stagingThreads.started).toBe(1);
  });

  it('stores exact normalized values (HPD violation 10000000)', async () => {
    const { rows } = await pool.query(
      `SELECT bbl, source_record_id, event_type, severity, status, to_char(occurred_on, 'YYYY-MM-DD') AS occurred_on, attributes, record
         FROM events WHERE source = 'hpd_violations' AND source_record_id = '10000000'`,
    );
    expect(rows.map(({ attributes, record, ...row }) => ({ ...row, class: eventAttributes('hpd_violations', attributes, record)['class'] }))).toEqual([
      { bbl: '3047040044', source_record_id: '10000000', event_type: 'hpd_violation', severity: 'high', status: 'closed', occurred_on: '2013-10-09', class: 'B' },
    ]);
  });

  it('stores PLUTO facts on the building (761 CLARENCE AVENUE)', async () => {
    const { rows } = await pool.query(
      `SELECT bbl, address, address_search, residential_units, owner_name, city FROM buildings WHERE bbl = '2054800111'`,
    );
    expect(rows).toEqual([
      { bbl: '2054800111', address: '761 CLARENCE AVENUE', address_search: '761 CLARENCE AVENUE', residential_units: 1, owner_name: 'RODRIGUEZ, JOSE R', city: 'BRONX' },
    ]);
  });

  it('counts HPD complaints per complaint, not per problem', async () => {
    const { rows } = await pool.query(
      `SELECT count(*)::int AS complaints, sum(jsonb_array_length(attributes->'problems'))::int AS problems FROM events WHERE source = 'hpd_complaints'`,
    );
    const csv = readFileSync(path.join(SHARED_FIXTURES, 'hpd_complaints_and_problems.csv'), 'utf8');
    const complaintIds = new Set(csv.trim().split('\n').slice(1).map((line) => line.split(',')[2]));
    expect(rows[0].complaints).toBe(complaintIds.size);
    expect(rows[0].problems).toBeGreaterThanOrEqual(rows[0].complaints);
  });

  it('fails loudly on a drifted header, naming the missing and unexpected columns, and writes nothing', async () => {
    const source = getSource('dob_ecb_violations');
    const before = await pool.query(`SELECT count(*)::int AS n FROM events WHERE source = 'dob_ecb_violations'`);
    const error = await loadFile(pool, source, path.join(SHARED_FIXTURES, 'ecb_violations_invalid_header.csv')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HeaderMismatchError);
    expect(String((error as Error).message)).toMatch(/HEARING_STATUS/);
    expect(String((error as Error).message)).toMatch(/MISHEARING_STATUS/);
    const after = await pool.query(`SELECT count(*)::int AS n FROM events WHERE source = 'dob_ecb_violations'`);
    expect(after.rows[0].n).toBe(before.rows[0].n);
    const leftovers = await pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'ingest_stg_%'`);
    expect(leftovers.rows[0].n).toBe(0);
  });

  it('loads the good rows of a garbage file and quarantines the rest with the raw text', async () => {
    const source = getSource('hpd_violations');
    const file = path.join(LOCAL_FIXTURES, 'garbage_hpd_violations.csv');
    await seedUniverseFor(pool, source, file);
    const { runId, counts } = await loadFile(pool, source, file);
    expect(counts.quarantined).toBeGreaterThan(0);
    expect(counts.loaded).toBeGreaterThan(0);
    expect(counts.read).toBe(counts.loaded + counts.quarantined + counts.out_of_scope);
    const { rows } = await pool.query(`SELECT reason, raw FROM rejected_rows WHERE run_id = $1 ORDER BY line_number`, [runId]);
    expect(rows).toHaveLength(counts.quarantined);
    for (const row of rows) {
      expect(row.reason).toMatch(/^[a-z_]+/);
      expect(row.raw.length).toBeGreaterThan(0);
    }
  });

  it('quarantines a row that holds a NUL character, which Postgres text cannot hold, and loads the rest', async () => {
    const source = getSource('hpd_violations');
    const garbage = path.join(LOCAL_FIXTURES, 'garbage_hpd_violations.csv');
    await seedUniverseFor(pool, source, garbage);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'bhis-nul-')), 'hpd_violations.csv');
    writeFileSync(file, readFileSync(garbage, 'utf8').replace('TRACE AND REPAIR', 'TRACE\u0000AND REPAIR').replace('10000100,371632', '10000100,37\u00001632'));
    const { runId, counts } = await loadFile(pool, source, file);
    expect(counts.quarantine_reasons).toMatchObject({ unstorable_text: 1, wrong_column_count: 2 });
    expect(counts.read).toBe(counts.loaded + counts.quarantined + counts.out_of_scope);
    const { rows } = await pool.query(`SELECT line_number, reason, raw FROM rejected_rows WHERE run_id = $1 AND raw LIKE '%\uFFFD%' ORDER BY line_number`, [runId]);
    expect(rows.map((row) => [row.line_number, row.reason.split(':')[0]])).toEqual([[4, 'wrong_column_count'], [9, 'unstorable_text']]);
    expect(rows[1].raw).toContain('TRACE\uFFFDAND REPAIR');
  });

  it('reads a gzip-compressed file as the plain one, and a re-run of the plain file changes nothing', async () => {
    const source = getSource('hpd_violations');
    const file = path.join(LOCAL_FIXTURES, 'garbage_hpd_violations.csv');
    await seedUniverseFor(pool, source, file);
    const dir = mkdtempSync(path.join(tmpdir(), 'bhis-gz-'));
    const gz = path.join(dir, 'hpd_violations.csv.gz');
    writeFileSync(gz, gzipSync(readFileSync(file)));
    const compressed = await loadFile(pool, source, gz);
    const plain = await loadFile(pool, source, file);
    expect(compressed.counts.read).toBe(plain.counts.read);
    expect(compressed.counts.quarantine_reasons).toEqual(plain.counts.quarantine_reasons);
    expect(compressed.counts.bytes).toBe(readFileSync(gz).length);
    expect(plain.counts.events).toMatchObject({ inserted: 0, updated: 0, status_changes: 0 });
  });

  it('fails a run whose write fails with the database\'s message, and keeps the previous data', async () => {
    const source = getSource('hpd_violations');
    const fingerprint = async () =>
      (
        await pool.query(
          `SELECT count(*)::int AS n, md5(string_agg(source_record_id || event_type || coalesce(status::text, '') || coalesce(description, ''), ','
                                                  ORDER BY source_record_id, event_type)) AS digest
             FROM events WHERE source = 'hpd_violations'`,
        )
      ).rows[0];
    const before = await fingerprint();
    expect(before.n).toBeGreaterThan(0);
    // every open violation closed: a load that would write updates and status changes...
    const closed = readFileSync(path.join(SHARED_FIXTURES, 'hpd_violations.csv'), 'utf8').replace(/,Open,/g, ',Close,');
    const dir = mkdtempSync(path.join(tmpdir(), 'bhis-fail-'));
    const file = path.join(dir, 'hpd_violations.csv');
    writeFileSync(file, closed);
    // ...and fails at its last write, as a full disk or a lost connection would make it fail
    await pool.query(`ALTER TABLE sources ADD CONSTRAINT test_write_fails CHECK (key <> 'hpd_violations' OR status <> 'ok') NOT VALID`);
    try {
      const error = await loadFile(pool, source, file).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(String((error as Error).message)).toMatch(/test_write_fails/);
    } finally {
      await pool.query(`ALTER TABLE sources DROP CONSTRAINT test_write_fails`);
    }
    expect(await fingerprint()).toEqual(before);
    const leftovers = await pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'ingest_stg_%'`);
    expect(leftovers.rows[0].n).toBe(0);
  });

  it('turns a status change between two loads into its own event, once', async () => {
    const source = getSource('hpd_violations');
    const original = readFileSync(path.join(SHARED_FIXTURES, 'hpd_violations.csv'), 'utf8');
    const open = await pool.query(
      `SELECT source_record_id FROM events WHERE source = 'hpd_violations' AND event_type = 'hpd_violation' AND status = 'open' ORDER BY source_record_id LIMIT 1`,
    );
    expect(open.rows).toHaveLength(1);
    const id = open.rows[0].source_record_id as string;
    const lines = original.split('\n');
    const changed = lines.map((line) => (line.startsWith(`${id},`) ? line.replace(/,Open,/, ',Close,') : line)).join('\n');
    expect(changed).not.toBe(original);
    const dir = mkdtempSync(path.join(tmpdir(), 'bhis-'));
    const file = path.join(dir, 'hpd_violations.csv');
    writeFileSync(file, changed);

    const first = await loadFile(pool, source, file, '2026-11-20');
    expect(first.counts.events.status_changes).toBe(1);
    expect(first.counts.events.updated).toBe(1);
    const change = await pool.query(
      `SELECT event_type, to_char(occurred_on, 'YYYY-MM-DD') AS occurred_on, attributes->>'previous_status' AS previous, attributes->>'new_status' AS current
         FROM events WHERE source = 'hpd_violations' AND source_record_id = $1`,
      [`${id}@2026-11-20`],
    );
    expect(change.rows).toEqual([{ event_type: 'hpd_violation_closed', occurred_on: '2026-11-20', previous: 'open', current: 'closed' }]);
    const dirty = await pool.query(`SELECT count(*)::int AS n FROM dirty_buildings`);
    expect(dirty.rows[0].n).toBeGreaterThan(0);

    const again = await loadFile(pool, source, file, '2026-11-20');
    expect(again.counts.events.status_changes).toBe(0);
    expect(again.counts.events.inserted).toBe(0);
  });

  it('raises the settled-history epoch of the building whose old record a small refresh changes, not that of all buildings', async () => {
    const source = getSource('hpd_violations');
    await pool.query('ANALYZE events');
    const [header, ...lines] = readFileSync(path.join(SHARED_FIXTURES, 'hpd_violations.csv'), 'utf8').split('\n');
    const open = lines.filter((l) => l.includes(',Open,'));
    const old = await pool.query(
      `SELECT source_record_id, bbl FROM events WHERE source = 'hpd_violations' AND event_type = 'hpd_violation' AND status = 'open'
          AND source_record_id = ANY($1) AND occurred_on < make_date(extract(year FROM current_date)::int - 4, 1, 1)
        ORDER BY source_record_id DESC LIMIT 1`,
      [open.map((l) => l.split(',')[0])],
    );
    expect(old.rows).toHaveLength(1);
    const { source_record_id: id, bbl } = old.rows[0] as { source_record_id: string; bbl: string };
    const line = open.find((l) => l.startsWith(`${id},`));
    expect(line).toBeDefined();
    const dir = mkdtempSync(path.join(tmpdir(), 'bhis-'));
    const file = path.join(dir, 'hpd_violations.csv');
    writeFileSync(file, `${header}\n${(line as string).replace(/,Open,/, ',Close,')}\n`);
    const epochOf = async () => (await pool.query(`SELECT epoch FROM settled_history_epoch`)).rows[0].epoch as string;
    const global = await epochOf();

    const { counts } = await loadFile(pool, source, file, '2026-11-21');
    expect(counts.events.updated).toBe(1);
    expect(await epochOf()).toBe(global);
    const raised = await pool.query(`SELECT bbl, epoch::int FROM settled_history_epochs WHERE bbl = $1`, [bbl]);
    expect(raised.rows).toEqual([{ bbl, epoch: 1 }]);
  });

  it('counts an HPD complaint that is also a 311 request once', async () => {
    const complaint = await pool.query(
      `SELECT bbl, source_record_id, attributes->'unique_keys_311'->>0 AS key FROM events
        WHERE source = 'hpd_complaints' AND jsonb_array_length(attributes->'unique_keys_311') > 0 LIMIT 1`,
    );
    expect(complaint.rows).toHaveLength(1);
    const { bbl, key, source_record_id: complaintId } = complaint.rows[0];
    const csv = readFileSync(path.join(SHARED_FIXTURES, 'nyc311_service_requests.csv'), 'utf8').split('\n');
    const header = csv[0].split(',');
    const values = header.map(() => '');
    const set = (column: string, value: string) => (values[header.indexOf(column)] = value);
    set('Unique Key', key);
    set('Created Date', '11/02/2026 08:00:00 AM');
    set('Agency', 'HPD');
    set('Agency Name', 'Department of Housing Preservation and Development');
    set('Complaint Type', 'HEAT/HOT WATER');
    set('Descriptor', 'ENTIRE BUILDING');
    set('Status', 'Open');
    set('BBL', bbl);
    set('Borough', 'BRONX');
    const dir = mkdtempSync(path.join(tmpdir(), 'bhis-'));
    const file = path.join(dir, 'nyc311_service_requests.csv');
    writeFileSync(file, `${csv[0]}\n${values.join(',')}\n`);
    const { counts } = await loadFile(pool, getSource('nyc311'), file);
    expect(counts.loaded).toBe(1);
    expect(counts.events.duplicates_311).toBe(1);
    const stored = await pool.query(
      `SELECT scoring_excluded, duplicate_of_hpd_complaint AS dup FROM events WHERE source = 'nyc311' AND source_record_id = $1`,
      [key],
    );
    expect(stored.rows).toEqual([{ scoring_excluded: true, dup: complaintId }]);
  });

  it('marks a stored 311 request when a later load of HPD complaints lists it', async () => {
    const marked = await pool.query<{ key: string; complaint: string }>(
      `SELECT source_record_id AS key, duplicate_of_hpd_complaint AS complaint FROM events WHERE source = 'nyc311' AND scoring_excluded LIMIT 1`,
    );
    expect(marked.rows).toHaveLength(1);
    const { key, complaint } = marked.rows[0];
    await pool.query(`UPDATE events SET scoring_excluded = false, duplicate_of_hpd_complaint = NULL WHERE source = 'nyc311' AND source_record_id = $1`, [key]);
    const complaints = fixtureFiles().filter((f) => f.source.key === 'hpd_complaints');
    let duplicates = 0;
    for (const { source, file } of complaints) duplicates += (await loadFile(pool, source, file)).counts.events.duplicates_311;
    expect(duplicates).toBeGreaterThanOrEqual(1);
    const stored = await pool.query(`SELECT scoring_excluded, duplicate_of_hpd_complaint AS dup FROM events WHERE source = 'nyc311' AND source_record_id = $1`, [key]);
    expect(stored.rows).toEqual([{ scoring_excluded: true, dup: complaint }]);
  });

  /** `work` in a transaction of its own, rolled back after. */
  async function rolledBack(work: (client: PoolClient) => Promise<void>): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await work(client);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }

  it('compares a refresh with the stored events, and marks stored 311 requests, by index probes when asked', async () => {
    await rolledBack(async (client) => {
      await client.query(
        `CREATE TEMP TABLE probed ON COMMIT DROP AS
         SELECT bbl, source, source_record_id, event_type, category, severity, status, occurred_on, closed_on, description,
                attributes, record, scoring_excluded, duplicate_of_hpd_complaint, line_hash FROM events WHERE source = 'hpd_complaints' LIMIT 20`,
      );
      await client.query('ANALYZE probed');
      for (const sql of [comparedSql('probed', true), markStored311Sql('probed')]) {
        const plan = await withIndexProbes(client, true, () => client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`));
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text).toMatch(/Nested Loop/);
        expect(text).toMatch(/Index Scan using events_\w+ on events_\w+/);
        expect(text).not.toMatch(/Hash Join|Merge Join|Seq Scan on events/);
      }
      // the settings end with the write
      const after = await client.query<{ enable_hashjoin: string }>(`SHOW enable_hashjoin`);
      expect(after.rows[0].enable_hashjoin).toBe('on');
    });
  });

  it('tells whether any record of a merged set is stored already (a later file with none is written without comparison)', async () => {
    await rolledBack(async (client) => {
      await client.query(
        `CREATE TEMP TABLE probe ON COMMIT DROP AS
         SELECT bbl, source, source_record_id || '-new' AS source_record_id, event_type FROM events WHERE source = 'nyc311'`,
      );
      const probed = await client.query('SELECT count(*)::int AS n FROM probe');
      expect(probed.rows[0].n).toBeGreaterThan(0);
      expect(await anyRecordStored(client, 'probe')).toBe(false);
      await client.query(`INSERT INTO probe SELECT bbl, source, source_record_id, event_type FROM events WHERE source = 'nyc311' LIMIT 1`);
      expect(await anyRecordStored(client, 'probe')).toBe(true);
    });
  });

  it('stores the HPD management program of a building (NYCHA public housing)', async () => {
    const csv = readFileSync(path.join(SHARED_FIXTURES, 'hpd_jurisdiction.csv'), 'utf8').split('\n');
    const active = csv.find((line) => line.endsWith('"Active"') && line.includes('"PVT"'));
    if (active === undefined) throw new Error('the fixture has no active building');
    const dir = mkdtempSync(path.join(tmpdir(), 'bhis-jurisdiction-'));
    const file = path.join(dir, 'hpd_jurisdiction.csv');
    writeFileSync(file, `${csv[0]}\n${active.replace('"PVT"', '"NYCHA"')}\n`);
    const { counts } = await loadFile(pool, getSource('hpd_jurisdiction'), file);
    expect(counts.loaded).toBe(1);
    const [buildingId] = active.split(',');
    const { rows } = await pool.query(`SELECT management_program FROM buildings WHERE $1::int = ANY (hpd_building_ids)`, [Number(JSON.parse(buildingId))]);
    expect(rows).toEqual([{ management_program: 'NYCHA' }]);
  });

  it('writes a first load over records already stored by hand, counted as written (the plain INSERT gives way to the upsert)', async () => {
    await withEmptyDatabase(async (freshPool) => {
      const source = getSource('hpd_litigations');
      const file = path.join(SHARED_FIXTURES, 'hpd_litigations.csv');
      await seedUniverseFor(freshPool, source, file);
      let first: NormalizedEvent | undefined;
      for await (const record of parseSource(source, createReadStream(file))) {
        if (record.outcome.kind === 'ok' && record.outcome.events.length > 0) {
          first = record.outcome.events[0];
          break;
        }
      }
      if (!first) throw new Error('the fixture has no event');
      await freshPool.query(
        `INSERT INTO events (bbl, source, source_record_id, event_type, category, severity, status, occurred_on, description, attributes, scoring_excluded)
         VALUES ($1, $2, $3, $4, $5, 'info', 'open', '1999-01-01', 'made by hand', '{}', false)`,
        [first.bbl, first.source, first.source_record_id, first.event_type, first.category],
      );
      const { counts } = await loadFile(freshPool, source, file);
      const stored = await freshPool.query(`SELECT count(*)::int AS n FROM events WHERE source = $1`, [source.key]);
      expect(counts.events.inserted).toBe(stored.rows[0].n);
      const row = await freshPool.query(
        `SELECT severity, to_char(occurred_on, 'YYYY-MM-DD') AS occurred_on, description FROM events
          WHERE bbl = $1 AND source = $2 AND source_record_id = $3 AND event_type = $4`,
        [first.bbl, first.source, first.source_record_id, first.event_type],
      );
      expect(row.rows).toEqual([{ severity: first.severity, occurred_on: first.occurred_on, description: null }]);
    });
  });

  it('counts events on BBLs outside the building universe as out of scope, and stores none of them', async () => {
    await withEmptyDatabase(async (emptyPool) => {
      const source = getSource('hpd_litigations');
      const { counts } = await loadFile(emptyPool, source, path.join(SHARED_FIXTURES, 'hpd_litigations.csv'));
      expect(counts.loaded).toBe(0);
      expect(counts.out_of_scope_reasons.not_in_universe).toBeGreaterThan(0);
      expect(counts.read).toBe(counts.quarantined + counts.out_of_scope);
      const stored = await emptyPool.query(`SELECT count(*)::int AS n FROM events`);
      expect(stored.rows[0].n).toBe(0);
    });
  });
});
