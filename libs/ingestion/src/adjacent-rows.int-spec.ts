import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { Pool } from 'pg';
import { getSource } from '@bhis/sources';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { syncSourceCatalog } from '@bhis/runs';
import { loadFile, seedUniverseFor, SHARED_FIXTURES } from './testing/fixtures';

const source = getSource('hpd_complaints');
const TYPES = ['NON EMERGENCY', 'IMMEDIATE EMERGENCY', 'EMERGENCY'];

/**
 * 60 complaints of 1 to 4 problems each, built from the real rows of the fixture: problems differ in
 * type (severity), received and status dates, complaint status and 311 key.
 */
function complaintRows(): { header: string[]; complaints: string[][][] } {
  const [header, ...real] = parse(readFileSync(path.join(SHARED_FIXTURES, 'hpd_complaints_and_problems.csv'))) as string[][];
  const col = (name: string) => header.indexOf(name);
  const complaints: string[][][] = [];
  let problemId = 90_000_000;
  for (let c = 0; c < 60; c++) {
    const base = real[c % real.length];
    const problems: string[][] = [];
    for (let p = 0; p <= c % 4; p++) {
      const row = [...base];
      row[col('Complaint ID')] = String(80_000_000 + c);
      row[col('Problem ID')] = String(problemId++);
      row[col('Type')] = TYPES[(c + p) % 3];
      row[col('Received Date')] = `0${1 + ((c + 2 * p) % 9)}/1${p}/2024`;
      row[col('Complaint Status')] = (c + p) % 2 ? 'CLOSE' : 'OPEN';
      row[col('Complaint Status Date')] = `0${1 + ((c * 7 + p) % 9)}/2${p}/2025`;
      row[col('Unique Key')] = String(70_000_000 + (c * 4 + p) % 150);
      problems.push(row);
    }
    complaints.push(problems);
  }
  return { header, complaints };
}

function write(dir: string, name: string, header: string[], rows: string[][]): string {
  const file = path.join(dir, name);
  writeFileSync(file, stringify([header, ...rows]));
  return file;
}

const STORED = `SELECT bbl, source_record_id, event_type, category, severity, status, occurred_on, closed_on, description,
                       attributes::text AS attributes, encode(record, 'hex') AS record, scoring_excluded
                  FROM events WHERE source = 'hpd_complaints' ORDER BY source_record_id, event_type`;

describe('rows of one complaint, next to each other or scattered through the file', () => {
  const databases: TestDatabase[] = [];
  const pools: Pool[] = [];
  let adjacentFile: string;
  let scatteredFile: string;

  beforeAll(() => {
    const { header, complaints } = complaintRows();
    const dir = mkdtempSync(path.join(tmpdir(), 'bhis-adjacent-'));
    adjacentFile = write(dir, 'hpd_complaints_and_problems.csv', header, complaints.flat());
    // the n-th problem of every complaint, then the next: no two rows of one complaint are adjacent
    const scattered: string[][] = [];
    for (let p = 0; p < 4; p++) for (const problems of complaints) if (problems[p]) scattered.push(problems[p]);
    scatteredFile = write(dir, 'scattered.csv', header, scattered);
  });

  async function freshPool(): Promise<Pool> {
    const db = await createTestDatabase();
    databases.push(db);
    const pool = new Pool({ connectionString: db.url, max: 4 });
    pools.push(pool);
    await syncSourceCatalog(pool);
    await seedUniverseFor(pool, source, adjacentFile);
    // one building of the file is outside the universe: its rows are counted out of scope
    await pool.query(`DELETE FROM buildings WHERE bbl = (SELECT min(bbl) FROM buildings)`);
    return pool;
  }

  afterAll(async () => {
    for (const pool of pools) await pool.end();
    for (const db of databases) await db.drop();
  });

  it('store the same events and the same counts', async () => {
    const adjacentPool = await freshPool();
    const scatteredPool = await freshPool();
    const adjacent = await loadFile(adjacentPool, source, adjacentFile);
    const scattered = await loadFile(scatteredPool, source, scatteredFile);

    const { header, complaints } = complaintRows();
    expect(header.length).toBeGreaterThan(0);
    expect(adjacent.counts.read).toBe(complaints.flat().length);
    expect(adjacent.counts.out_of_scope).toBeGreaterThan(0);
    const counted = (c: typeof adjacent.counts) => ({ read: c.read, loaded: c.loaded, out_of_scope: c.out_of_scope, events: c.events });
    expect(counted(adjacent.counts)).toEqual(counted(scattered.counts));
    expect(adjacent.counts.events.collapsed_duplicates).toBeGreaterThan(0);
    // every file row is accounted for: stored, collapsed into its record, or out of scope
    const { staged, inserted, collapsed_duplicates } = adjacent.counts.events;
    expect(staged).toBe(complaints.flat().length);
    expect(inserted + collapsed_duplicates + adjacent.counts.out_of_scope).toBe(staged);

    const stored = (await adjacentPool.query(STORED)).rows;
    expect(stored.length).toBeGreaterThan(40);
    expect(stored).toEqual((await scatteredPool.query(STORED)).rows);
  });

  it('a refresh with the other order changes nothing', async () => {
    const pool = pools[0];
    const again = await loadFile(pool, source, scatteredFile, '2026-11-02');
    expect(again.counts.events).toMatchObject({ inserted: 0, updated: 0, status_changes: 0 });
  });
});
