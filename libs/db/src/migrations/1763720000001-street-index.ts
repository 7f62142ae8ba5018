import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The buildings of a street in order (libs/read-api/src/search/search.query.ts `STREET_OF_ADDRESS`):
 * a search by street alone (`lexington`) reads one range of this index, a page at a time, where the
 * trigram match of `%LEXINGTON%` read every building of the street and sorted them. In byte order
 * (collation C): the prefix match and the row comparison of a page's position both use it.
 */
export class StreetIndex1763720000001 implements MigrationInterface {
  name = 'StreetIndex1763720000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX buildings_street_idx ON buildings ((regexp_replace(address_search, '^[0-9][0-9A-Z-]* ', '') COLLATE "C"), bbl)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX buildings_street_idx`);
  }
}
