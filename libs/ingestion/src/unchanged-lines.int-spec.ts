import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { getSource } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { IngestInput } from '@bhis/queue';
import { createRun, type IngestCounts, syncSourceCatalog } from '@bhis/runs';
import { IngestService } from './ingest-service';
import { SocrataClient } from './socrata';
import { LOCAL_DOWNLOADS } from './testing/fake-open-data';
import { seedUniverseFor, SHARED_FIXTURES } from './testing/fixtures';

/**
 * A re-ingest skips the lines whose hash is stored (docs/adr/0020-unchanged-lines-skipped.md) and
 * ends with the events a full parse of the same file gives: an unchanged file changes nothing, a
 * changed line is updated, a missing record closed, a bad line quarantined.
 */
describe('lines stored already are skipped, unparsed', () => {
  const violations = path.join(SHARED_FIXTURES, 'hpd_violations.csv');
  const source = getSource('hpd_violations');
  const tmp = mkdtempSync(path.join(tmpdir(), 'bhis-unchanged-'));
  const [header, ...rows] = readFileSync(violations, 'utf8').trimEnd().split('\n');
  const write = (name: string, lines: string[]) => {
    const file = path.join(tmp, name);
    writeFileSync(file, [header, ...lines, ''].join('\n'));
    return file;
  };
  // the first record closed ("Close" -> "Open" is no status change the city makes, but a changed value)
  const changedFirst = rows[0].replace(',Original,Close,', ',Original,Open,');
  // the third record's line twice over, the second with a later inspection date: one record of two rows
  // now, which a full parse dates by the earlier, its first
  const repeatedThird = rows[2].replace(/^([^,]*,){16}[^,]*/, (m) => m.replace(/,[^,]*$/, ',01/02/2015'));

  let db: TestDatabase;
  let fresh: TestDatabase;
  let pool: Pool;
  let freshPool: Pool;

  beforeAll(async () => {
    [db, fresh] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    pool = new Pool({ connectionString: db.url, max: 4 });
    freshPool = new Pool({ connectionString: fresh.url, max: 4 });
    for (const p of [pool, freshPool]) {
      await syncSourceCatalog(p);
      await seedUniverseFor(p, source, violations);
    }
  });

  afterAll(async () => {
    await Promise.all([pool?.end(), freshPool?.end()]);
    await Promise.all([db?.drop(), fresh?.drop()]);
    rmSync(tmp, { recursive: true, force: true });
  });

  const ingest = async (on: Pool, input: IngestInput): Promise<IngestCounts> => {
    const service = new IngestService(on, new SocrataClient({ baseUrl: 'http://127.0.0.1:9', policy: LOCAL_DOWNLOADS }), { enforceMinimumRows: false });
    const runId = await createRun(on, { source: source.key, trigger: 'test', input: 'file' });
    const result = await service.run({ runId, source: source.key, input, observedOn: '2026-11-24', lastAttempt: true });
    if (result.status !== 'succeeded') throw new Error(`the load did not succeed: ${JSON.stringify(result)}`);
    return result.counts;
  };
  /** The stored records as the API reads them (the line hashes aside; the status changes a refresh adds are its own). */
  const events = async (on: Pool) =>
    (
      await on.query<{ row: string }>(
        `SELECT (to_jsonb(e) - 'id' - 'line_hash' - 'row_hash' - 'first_seen_at' - 'updated_at')::text AS row FROM events e
          WHERE source = 'hpd_violations' AND event_type = 'hpd_violation' ORDER BY source_record_id`,
      )
    ).rows.map((r) => r.row);
  const dirty = async () => (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM dirty_buildings`)).rows[0].n;

  it('a first load stores the hash of each record of one line', async () => {
    const counts = await ingest(pool, { kind: 'file', path: violations, complete: true });
    expect(counts.unchanged_lines).toBe(0);
    const hashed = await pool.query<{ hashed: number; all: number }>(
      `SELECT count(line_hash)::int AS hashed, count(*)::int AS all FROM events WHERE source = 'hpd_violations'`,
    );
    expect(hashed.rows[0].all).toBeGreaterThan(5);
    expect(hashed.rows[0].hashed).toBe(hashed.rows[0].all);
  });

  it('an unchanged file changes nothing and counts its lines unchanged', async () => {
    const before = await events(pool);
    await pool.query(`DELETE FROM dirty_buildings`);
    const counts = await ingest(pool, { kind: 'file', path: violations, complete: true });
    expect(counts.unchanged_lines).toBe(before.length);
    expect(counts).toMatchObject({ read: rows.length, loaded: before.length, vanished: 0 });
    expect(counts.events).toMatchObject({ staged: 0, inserted: 0, updated: 0, status_changes: 0 });
    expect(await events(pool)).toEqual(before);
    expect(await dirty()).toBe(0);
  });

  it('a changed line is updated, a missing record closed, a bad line quarantined; the rest skipped', async () => {
    const lines = [changedFirst, ...rows.slice(1, -1), 'not,a,row'];
    const file = write('hpd_violations_changed.csv', lines);
    const counts = await ingest(pool, { kind: 'file', path: file, complete: true });
    expect(counts.unchanged_lines).toBe(rows.length - 2);
    expect(counts.events).toMatchObject({ inserted: 0, updated: 1, status_changes: 1 });
    expect(counts.vanished).toBe(1);
    expect(counts.quarantine_reasons).toEqual({ wrong_column_count: 1 });
    const [closed] = (await pool.query<{ id: string }>(`SELECT source_record_id AS id FROM events WHERE attributes ? 'vanished_on'`)).rows;
    expect(closed.id).toBe(rows[rows.length - 1].split(',')[0]);
    // the same file parsed whole, into a database that never saw the earlier one, stores the same records
    await ingest(freshPool, { kind: 'file', path: write('hpd_violations_changed_fresh.csv', lines.slice(0, -1)), complete: true });
    const kept = (await events(pool)).filter((row) => !row.includes('vanished_on'));
    expect(kept).toEqual(await events(freshPool));
  });

  it('a record of one stored line that now has two rows is merged from both, as a full parse merges it', async () => {
    const lines = [changedFirst, ...rows.slice(1, 3), repeatedThird, ...rows.slice(3, -1)];
    expect(repeatedThird).toContain(',01/02/2015,');
    const counts = await ingest(pool, { kind: 'file', path: write('hpd_violations_repeated.csv', lines), complete: true });
    expect(counts.unchanged_lines).toBe(lines.length - 1);
    await ingest(freshPool, { kind: 'file', path: write('hpd_violations_repeated_fresh.csv', lines), complete: true });
    const stored = (await events(pool)).filter((row) => !row.includes('vanished_on'));
    expect(stored).toEqual(await events(freshPool));
    expect(stored.find((row) => row.includes('"10000002"'))).toContain('"occurred_on": "2013-10-09"');
  });
});
