import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The secondary indexes of `events` a first load of the city drops and builds once it is over
 * (event-indexes.ts): their definitions wait here meanwhile, so that any later process can build
 * them again if the load never finished.
 */
export class DeferredEventIndexes1763702800000 implements MigrationInterface {
  name = 'DeferredEventIndexes1763702800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE deferred_event_indexes (name text PRIMARY KEY, definition text NOT NULL, deferred_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    // an index still deferred is built before its definition goes
    const { length } = (await q.query(`SELECT 1 FROM deferred_event_indexes`)) as unknown[];
    if (length > 0) throw new Error('indexes of events are still deferred: run `bhis db reindex-events` first');
    await q.query(`DROP TABLE deferred_event_indexes`);
  }
}
