import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The addresses of one house number, their streets in trigrams (libs/read-api/src/search/search.query.ts
 * `HOUSE_NUMBER_OF_ADDRESS`): a search by house number and street (`109 e 30 st`, a typo in it, a
 * pasted postal address) descends to that house number and matches the street in the index, where a
 * prefix range of buildings_address_prefix_idx (`109 %`) fetched every building of the house number
 * to test its street, as many as the city has. GiST, because its trigram operator class takes a
 * second column next to the house number's equality (btree_gist) and checks word similarity in the
 * index entries; the GIN equivalent intersects the posting lists of the street's commonest trigrams
 * (STREET, AVENUE) and read three times the pages.
 */
export class HouseNumberStreetIndex1763730000000 implements MigrationInterface {
  name = 'HouseNumberStreetIndex1763730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS btree_gist`);
    await q.query(`CREATE INDEX buildings_house_street_idx ON buildings USING gist ((substring(address_search, '^([^ ]+) ')), address_search gist_trgm_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX buildings_house_street_idx`);
  }
}
