import type { Client, Pool } from 'pg';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** What a statement read of one table (its partitions included), from EXPLAIN ANALYZE. */
export interface TableReads {
  /** Rows the scans of the table produced or threw away (filter, recheck), over every loop. */
  rowsExamined: number;
  /** The kinds of scan of the table (`Seq Scan`, `Index Scan`, `Bitmap Heap Scan`...). */
  scans: string[];
  /** The indexes the statement read, of any table. */
  indexes: string[];
}

/**
 * Runs the statement under EXPLAIN (ANALYZE, FORMAT JSON) and counts the rows it read of `table`: the
 * rows each scan node of it returned plus those it removed by filter or index recheck, times its loops.
 * Partitions count as the table (`events_p3` for `events`).
 */
export async function tableReads(db: Pool | Client, statement: { text: string; values?: unknown[] }, table: string): Promise<TableReads> {
  const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.values ?? []);
  const reads: TableReads = { rowsExamined: 0, scans: [], indexes: [] };
  const walk = (node: PlanNode): void => {
    if (node['Index Name']) reads.indexes.push(node['Index Name']);
    const relation = node['Relation Name'];
    if (relation && (relation === table || relation.startsWith(`${table}_`))) {
      const loops = node['Actual Loops'] ?? 1;
      reads.rowsExamined += ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * loops;
      reads.scans.push(node['Node Type']);
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(rows[0]!['QUERY PLAN'][0].Plan);
  return reads;
}

/**
 * Buildings enough that Postgres plans as it would for the city (on a few thousand rows a scan is the
 * cheaper plan), each scored like `templateBbl` (which must be scored) with a score of its own: 45% of
 * the addresses avenues (`12 7 AVENUE`), the rest streets with names of random letters, and five on
 * ZEPHYR STREET (`2 ZEPHYR STREET` ... `10 ZEPHYR STREET`). Their score rows carry no document.
 */
export async function seedAddressCity(db: Pool | Client, count: number, templateBbl: string): Promise<void> {
  await db.query(
    `INSERT INTO buildings (bbl, borough, block, lot, address, city, zipcode, residential_units, total_units, year_built, building_class, address_search)
     SELECT lpad((2000000000 + g * 10 + 1)::text, 10, '0'), 2, (g * 10 + 1) / 10000, (g * 10 + 1) % 10000, a, 'BRONX', '10451', 10, 11, 1931, 'C1', a
       FROM (SELECT g, CASE WHEN g % 20 < 9 THEN (g % 300 + 1) || ' ' || (g % 40 + 1) || ' AVENUE'
                            WHEN g <= 5 THEN (g * 2) || ' ZEPHYR STREET'
                            ELSE (g % 300 + 1) || ' ' || translate(substr(md5(g::text), 1, 7), '0123456789', 'GHIJKLMNOP') || ' STREET' END AS a
               FROM generate_series(1, $1::int) g) x`,
    [count],
  );
  await db.query(
    `INSERT INTO building_scores (bbl, run_id, as_of, scorer_id, total_score, health_score, grade, label, components, flags, scores, counts, confidence, explanation, document)
     SELECT b.bbl, t.run_id, t.as_of, t.scorer_id, (hashtext(b.bbl) & 65535) % 101, t.health_score, t.grade, t.label, t.components, t.flags, t.scores, t.counts,
            t.confidence, '{}', '{}'
       FROM buildings b CROSS JOIN building_scores t WHERE t.bbl = $1 AND b.bbl <> $1`,
    [templateBbl],
  );
}
