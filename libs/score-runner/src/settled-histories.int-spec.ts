import { Pool } from 'pg';
import { forgetSettledHistories, keepingSettledHistories, settledHorizon } from '@bhis/db';
import type { HistogramRow } from '@bhis/scoring';
import { createTestDatabase, TestDatabase } from '@bhis/testing';
import { histogramByBbl } from './building-input';
import { readChunk } from './feature-queries';
import { DELETE_COUNTED_SQL, readSettled, storeCountedSettled } from './settled-histories';

const AS_OF = '2026-11-01';
const HORIZON = settledHorizon(AS_OF);
const BBLS = Array.from({ length: 24 }, (_, i) => `30001000${String(i + 10)}`);

/** A small deterministic generator, so that every run seeds the same histories. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const KINDS = [
  { type: 'hpd_violation', source: 'hpd_violations', category: 'habitability' },
  { type: 'hpd_violation', source: 'hpd_violations', category: 'water_damage' },
  { type: 'complaint_311', source: 'nyc311', category: 'heat_hot_water' },
  { type: 'emergency_repair_omo', source: 'hpd_emergency_repairs', category: 'emergency_repair' },
] as const;
const STATUSES = ['open', 'closed', 'closed', null] as const;
const SEVERITIES = ['high', 'medium'] as const;

/**
 * Events of every kind the settled histories must reproduce: dated from 2012 to the as-of date and
 * after it, undated ones, records without a status, old records closed after the horizon (some of
 * them after the as-of date), excluded 311 copies, money amounts with cents and many events on one day.
 */
async function seedHistories(pool: Pool): Promise<void> {
  const random = generator(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  for (const bbl of BBLS) {
    await pool.query(
      `INSERT INTO buildings (bbl, borough, block, lot, address, city, zipcode, residential_units, total_units, year_built, building_class, num_buildings, in_hpd_jurisdiction, hpd_legal_units)
       VALUES ($1, 3, $2, $3, 'TEST STREET', 'BROOKLYN', '11201', 12, 12, 1931, 'C1', 1, true, 12)`,
      [bbl, Number(bbl.slice(1, 6)), Number(bbl.slice(6))],
    );
    const values: unknown[][] = [];
    for (let i = 0; i < 60; i++) {
      const kind = pick(KINDS);
      const day = random() < 0.05 ? null : new Date(Date.UTC(2012, 0, 1) + Math.floor(random() * 5500) * 86400000).toISOString().slice(0, 10);
      const status = pick(STATUSES);
      const closedOn = status === 'closed' ? pick(['2015-03-02', '2026-02-10', '2026-12-20', null]) : null;
      const sameDay = i % 10 === 0 && values.length > 0 ? (values[values.length - 1][6] as string | null) : day;
      values.push([bbl, kind.source, `${bbl}-${i}`, kind.type, kind.category, pick(SEVERITIES), sameDay, status, closedOn, kind.type === 'emergency_repair_omo' ? { amount: Math.round(random() * 100000) / 100 } : {}, kind.type === 'complaint_311' && random() < 0.3]);
    }
    for (const v of values) {
      await pool.query(
        `INSERT INTO events (bbl, source, source_record_id, event_type, category, severity, occurred_on, status, closed_on, attributes, scoring_excluded)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        v,
      );
    }
  }
}

/** A chunk's histograms by BBL, each cell in a stable order, for comparison. */
async function histograms(pool: Pool, horizon: string | null, asOf = AS_OF): Promise<Record<string, HistogramRow[]>> {
  const chunk = await readChunk(pool, BBLS, asOf, horizon);
  const byBbl = histogramByBbl(chunk.histogram, chunk.settled, asOf);
  const key = (r: HistogramRow) => [r.source, r.event_type, r.category, r.severity, r.open, r.scoring_excluded, r.age_bucket].join('|');
  return Object.fromEntries([...byBbl.entries()].map(([bbl, rows]) => [bbl, [...rows].sort((a, b) => (key(a) < key(b) ? -1 : 1))]));
}

async function epoch(pool: Pool): Promise<number> {
  return Number((await pool.query(`SELECT epoch FROM settled_history_epoch`)).rows[0].epoch);
}

async function countedNow(pool: Pool): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    const { counted } = await readSettled(client, BBLS, HORIZON);
    await client.query('COMMIT');
    if (counted > 0) await storeCountedSettled(client, HORIZON);
    return counted;
  } finally {
    client.release();
  }
}

describe('settled histories (real Postgres)', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new Pool({ connectionString: db.url, max: 6 });
    await seedHistories(pool);
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('gives the histogram read from all the events, when counted and when read back', async () => {
    const direct = await histograms(pool, null);
    expect(Object.keys(direct)).toHaveLength(BBLS.length);
    const counted = await histograms(pool, HORIZON);
    expect(counted).toEqual(direct);
    const stored = await pool.query(`SELECT count(*)::int AS n FROM settled_histories WHERE horizon = $1`, [HORIZON]);
    expect(stored.rows[0].n).toBe(BBLS.length);
    expect(await histograms(pool, HORIZON)).toEqual(direct);
    // a later as-of date with the same horizon: records closed in between are no longer open
    expect(await histograms(pool, HORIZON, '2026-12-31')).toEqual(await histograms(pool, null, '2026-12-31'));
  });

  it('is counted again after a write to events that does not keep the summaries (SQL by hand, a first load)', async () => {
    await countedNow(pool);
    expect(await countedNow(pool)).toBe(0);
    const before = await epoch(pool);
    await pool.query(`UPDATE events SET status = 'open' WHERE bbl = $1 AND occurred_on < '2015-01-01'`, [BBLS[0]]);
    expect(await epoch(pool)).toBe(before + 1);
    expect(await countedNow(pool)).toBe(BBLS.length);
    expect(await histograms(pool, HORIZON)).toEqual(await histograms(pool, null));
  });

  it('is counted again, for its building alone, after a merge that keeps the summaries writes an old event', async () => {
    await countedNow(pool);
    const before = await epoch(pool);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await keepingSettledHistories(client, true, async () => {
        const old = await client.query(`UPDATE events SET status = 'closed' WHERE bbl = $1 AND occurred_on < '2016-01-01' RETURNING bbl, to_char(occurred_on, 'YYYY-MM-DD') AS occurred_on`, [BBLS[1]]);
        expect(old.rows.length).toBeGreaterThan(0);
        const recent = await client.query(`UPDATE events SET severity = 'high' WHERE bbl = $1 AND occurred_on > '2025-01-01' RETURNING bbl, to_char(occurred_on, 'YYYY-MM-DD') AS occurred_on`, [BBLS[2]]);
        expect(recent.rows.length).toBeGreaterThan(0);
        const rows = [...old.rows, ...recent.rows];
        await forgetSettledHistories(client, `SELECT * FROM unnest($1::char(10)[], $2::date[])`, [rows.map((r) => r.bbl), rows.map((r) => r.occurred_on)]);
      });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await epoch(pool)).toBe(before);
    const raised = await pool.query(`SELECT bbl FROM settled_history_epochs`);
    expect(raised.rows.map((r) => r.bbl)).toEqual([BBLS[1]]);
    expect(await countedNow(pool)).toBe(1);
    expect(await histograms(pool, HORIZON)).toEqual(await histograms(pool, null));
  });

  it('does not keep as valid a summary counted before a merge that commits while it is counted', async () => {
    await countedNow(pool);
    const counting = await pool.connect();
    try {
      await counting.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await counting.query(`DELETE FROM settled_history_groups WHERE bbl = $1`, [BBLS[3]]);
      await counting.query(`DELETE FROM settled_histories WHERE bbl = $1`, [BBLS[3]]);
      const { counted } = await readSettled(counting, BBLS, HORIZON);
      expect(counted).toBe(1);
      // meanwhile a merge writes an old event of that building and commits
      const merge = await pool.connect();
      try {
        await merge.query('BEGIN');
        await keepingSettledHistories(merge, true, async () => {
          await merge.query(`UPDATE events SET severity = 'medium' WHERE bbl = $1 AND occurred_on < '2016-01-01'`, [BBLS[3]]);
          await forgetSettledHistories(merge, `SELECT $1::char(10), '2015-01-01'::date`, [BBLS[3]]);
        });
        await merge.query('COMMIT');
      } finally {
        merge.release();
      }
      await counting.query('COMMIT');
      await storeCountedSettled(counting, HORIZON);
    } finally {
      counting.release();
    }
    expect(await countedNow(pool)).toBe(1);
    expect(await histograms(pool, HORIZON)).toEqual(await histograms(pool, null));
  });

  it('finds the old groups of the counted buildings by index, however many groups are stored', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO settled_history_groups SELECT (g.bbl::bigint + 100000 * i)::text, g.source, g.event_type, g.category, g.severity, g.status_open,
                                 g.closes_on, g.scoring_excluded, g.undated, g.count, g.amount, g.newest_event_ids, g.newest_event_dates, g.newest_occurred_on
                            FROM settled_history_groups g CROSS JOIN generate_series(1, 2000) i`);
      await client.query('ANALYZE settled_history_groups');
      await client.query(`CREATE TEMP TABLE settled_counted_heads ON COMMIT DROP AS SELECT unnest($1::char(10)[]) AS bbl`, [BBLS]);
      const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${DELETE_COUNTED_SQL}`);
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Index Scan using settled_history_groups_bbl_idx/);
      expect(text).not.toMatch(/Merge Join|Hash Join|Seq Scan on settled_history_groups/);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('starts no later than the first of January five years before the as-of year', () => {
    expect(settledHorizon('2026-11-29')).toBe('2021-01-01');
    expect(settledHorizon('2027-01-01')).toBe('2022-01-01');
  });
});
