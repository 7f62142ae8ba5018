import path from 'node:path';
import { Pool } from 'pg';
import { CATEGORIES, EVENT_STATUSES, EVENT_TYPES, SEVERITIES } from '@bhis/domain';
import { attributesText, EVENT_CODE_TYPES, expandProblem, jsonbText, readRecord } from '@bhis/db';
import { getSource, SOURCES } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { syncSourceCatalog } from '@bhis/runs';
import { dropStaging, openStaging } from './staging';
import { loadFile, seedUniverseFor, SHARED_FIXTURES } from './testing/fixtures';
import { runMigrationStep } from './testing/migrations';

const fixture = (name: string) => path.join(SHARED_FIXTURES, name);
const MIGRATION = 'EventCodeTypes1763702400000';
/** A later migration whose index names the code types: undone before MIGRATION, as `bhis db migrate` would revert them. */
const AREA_INDEX = 'AreaReportingIndex1763702900000';
/** Its tables use the event code types: undone before them, done again after. */
const SETTLED_HISTORIES = 'SettledHistories1763703000000';
const RUN = '00000000-0000-0000-0000-00000000c0de';
const bytewise = (values: readonly string[]) => [...values].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

/**
 * How events are stored (docs/adr/0011-event-storage-and-load-path.md): the five codes are enums
 * (migration 1763702400000-event-code-types), the 311 duplicate mark a column of its own
 * (1763702500000-duplicate-mark-column), a compact complaint problem one jsonb string
 * (1763702600000-complaint-problem-strings).
 */
describe('event storage', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 4 });
    await syncSourceCatalog(pool);
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const labels = async (type: string) =>
    (await pool.query<{ label: string }>(`SELECT enumlabel AS label FROM pg_enum WHERE enumtypid = $1::regtype ORDER BY enumsortorder`, [type])).rows.map(
      (r) => r.label,
    );

  it('has as labels the vocabulary of the domain and the source registry, in byte order', async () => {
    const vocabulary: Record<keyof typeof EVENT_CODE_TYPES, readonly string[]> = {
      source: SOURCES.map((s) => s.key),
      event_type: EVENT_TYPES,
      category: CATEGORIES,
      severity: SEVERITIES,
      status: EVENT_STATUSES,
    };
    for (const [column, { type }] of Object.entries(EVENT_CODE_TYPES)) {
      // labels added by later migrations count too: the database's labels are compared, in their order
      const stored = await labels(type);
      expect(stored).toEqual(bytewise(vocabulary[column as keyof typeof EVENT_CODE_TYPES]));
      // an enum sorts by its labels' order: the same order as their text under the C collation
      const sorted = await pool.query<{ label: string }>(`SELECT l AS label FROM unnest($1::${type}[]) l ORDER BY l`, [bytewise(stored).reverse()]);
      expect(sorted.rows.map((r) => r.label)).toEqual(stored);
      const column_type = await pool.query(`SELECT udt_name FROM information_schema.columns WHERE table_name = 'events' AND column_name = $1 AND table_schema = current_schema()`, [column]);
      expect(column_type.rows[0].udt_name).toBe(type);
    }
  });

  it('refuses a value that is not a label where it is written, naming the type and the value', async () => {
    const staging = await openStaging(pool, 'events', RUN);
    await staging.write([1, '1000010001', 'hpd_violations', 'r1', 'not_an_event_type', 'other', 'low', null, null, null, null, '{}', null, false, 1, true, null]);
    await expect(staging.close()).rejects.toThrow('invalid input value for enum event_type: "not_an_event_type"');
    await dropStaging(pool, RUN);
    await expect(
      pool.query(
        `INSERT INTO events (bbl, source, source_record_id, event_type, category, severity) VALUES ('1000010001', 'hpd_violations', 'r1', 'hpd_violation', 'other', $1::text)`,
        ['low'],
      ),
    ).rejects.toThrow('column "severity" is of type event_severity but expression is of type text');
  });

  it('converts stored rows to text and back, unchanged, and a load after that writes nothing', async () => {
    for (const [key, name] of [['hpd_violations', 'hpd_violations.csv'], ['hpd_complaints', 'hpd_complaints_and_problems.csv'], ['nyc311', 'nyc311_service_requests.csv']]) {
      await seedUniverseFor(pool, getSource(key), fixture(name));
      await loadFile(pool, getSource(key), fixture(name));
    }
    const snapshot = async () => (await pool.query(`SELECT to_jsonb(e) AS row FROM events e ORDER BY id`)).rows;
    const loaded = await snapshot();
    expect(loaded.length).toBeGreaterThan(50);
    const types = async () =>
      (await pool.query(`SELECT DISTINCT data_type FROM information_schema.columns WHERE table_name = 'events' AND column_name = ANY($1::text[])`, [Object.keys(EVENT_CODE_TYPES)])).rows.map(
        (r) => r.data_type,
      );
    await runMigrationStep(pool, SETTLED_HISTORIES, 'down');
    await runMigrationStep(pool, AREA_INDEX, 'down');
    await runMigrationStep(pool, MIGRATION, 'down');
    expect(await types()).toEqual(['text']);
    expect(await snapshot()).toEqual(loaded);
    await runMigrationStep(pool, MIGRATION, 'up');
    await runMigrationStep(pool, AREA_INDEX, 'up');
    await runMigrationStep(pool, SETTLED_HISTORIES, 'up');
    expect(await types()).toEqual(['USER-DEFINED']);
    expect(await snapshot()).toEqual(loaded);
    const again = await loadFile(pool, getSource('hpd_violations'), fixture('hpd_violations.csv'), '2026-11-02');
    expect(again.counts.events).toMatchObject({ inserted: 0, updated: 0, status_changes: 0 });
  });

  it('moves the 311 duplicate marks into their column and back: the attributes print the same', async () => {
    // loaded by the test above; the 311 requests marked as a merge of HPD complaints marks them
    const marks = await pool.query(`UPDATE events SET scoring_excluded = true, duplicate_of_hpd_complaint = '3' || id WHERE source = 'nyc311'`);
    expect(marks.rowCount).toBeGreaterThan(0);
    const printed = async (withColumn: boolean) =>
      (
        await pool.query(
          `SELECT source, attributes::text AS attributes, record, ${withColumn ? 'duplicate_of_hpd_complaint' : 'NULL'} AS dup FROM events ORDER BY id`,
        )
      ).rows.map((r) => attributesText(r.attributes, r.record && readRecord(r.source, r.record).attributes, r.dup));
    const snapshot = async () => (await pool.query(`SELECT to_jsonb(e) AS row FROM events e ORDER BY id`)).rows;
    const stored = await snapshot();
    const before = await printed(true);
    expect(before.filter((text) => text.includes('"duplicate_of_hpd_complaint": "3')).length).toBe(marks.rowCount);
    await runMigrationStep(pool, 'DuplicateMarkColumn1763702500000', 'down');
    expect(await printed(false)).toEqual(before);
    await runMigrationStep(pool, 'DuplicateMarkColumn1763702500000', 'up');
    expect(await snapshot()).toEqual(stored);
    const marked = await pool.query(`SELECT count(*)::int AS n FROM events WHERE attributes ? 'duplicate_of_hpd_complaint'`);
    expect(marked.rows[0].n).toBe(0);
  });

  it('turns compact complaint problems into strings and back: the same ids and records, printed the same', async () => {
    const complaints = async () =>
      (await pool.query(`SELECT source, attributes::text AS attributes, record FROM events WHERE event_type = 'hpd_complaint' ORDER BY id`)).rows;
    const printed = (rows: { source: string; attributes: string; record: Buffer | null }[]) =>
      rows.map((r) => attributesText(r.attributes, r.record && readRecord(r.source, r.record).attributes));
    const loaded = await complaints();
    expect(loaded.filter((r) => /"problems": \["-?[0-9]+ /.test(r.attributes)).length).toBeGreaterThan(5);
    await runMigrationStep(pool, 'ComplaintProblemStrings1763702600000', 'down');
    const arrays = await complaints();
    expect(arrays.filter((r) => /"problems": \[\[-?[0-9]+, "/.test(r.attributes)).length).toBeGreaterThan(5);
    expect(arrays.every((r) => !r.attributes.includes('"problems": ["'))).toBe(true);
    expect(printed(arrays)).toEqual(printed(loaded));
    await runMigrationStep(pool, 'ComplaintProblemStrings1763702600000', 'up');
    expect(await complaints()).toEqual(loaded);
  });

  it('writes the records of zstd back with deflate and again with zstd: printed the same, and a load after that writes nothing', async () => {
    const stored = async () =>
      (await pool.query<{ source: string; attributes: string; record: Buffer | null }>(`SELECT source, attributes::text AS attributes, record FROM events ORDER BY id`)).rows;
    const printed = (rows: { source: string; attributes: string; record: Buffer | null }[]) =>
      rows.map((r) => attributesText(expandedProblems(r.attributes), r.record && readRecord(r.source, r.record).attributes));
    const expandedProblems = (attributes: string) => {
      const parsed = JSON.parse(attributes) as Record<string, unknown>;
      return Array.isArray(parsed['problems']) ? jsonbText({ ...parsed, problems: parsed['problems'].map((p) => expandProblem(p)) }) : attributes;
    };
    const loaded = await stored();
    const codecs = (rows: { record: Buffer | null }[]) => [...new Set(rows.flatMap((r) => (r.record ? [r.record[0]] : [])))].sort();
    expect(codecs(loaded)).toEqual([3]);
    await runMigrationStep(pool, 'ZstdEventRecords1763702700000', 'down');
    const deflated = await stored();
    expect(codecs(deflated)).toEqual([2]);
    expect(deflated.map((r) => r.attributes)).not.toEqual(loaded.map((r) => r.attributes)); // the problems' records too
    expect(printed(deflated)).toEqual(printed(loaded));
    await runMigrationStep(pool, 'ZstdEventRecords1763702700000', 'up');
    expect(await stored()).toEqual(loaded);
    const again = await loadFile(pool, getSource('hpd_complaints'), fixture('hpd_complaints_and_problems.csv'), '2026-11-03');
    expect(again.counts.events).toMatchObject({ inserted: 0, updated: 0, status_changes: 0 });
  });
});
