import type { Pool } from 'pg';
import { syncSourceCatalog } from '@bhis/runs';

/** A building universe of `bbls` (Brooklyn lots of 20 units) and the source catalog, for loads to land in. */
export async function seedUniverse(pool: Pool, bbls: readonly string[]): Promise<void> {
  await syncSourceCatalog(pool);
  await pool.query(
    `INSERT INTO buildings (bbl, borough, block, lot, address, residential_units)
     SELECT b, 3, substr(b, 2, 5)::int, 1, 'TEST ' || b, 20 FROM unnest($1::text[]) b`,
    [bbls],
  );
}
