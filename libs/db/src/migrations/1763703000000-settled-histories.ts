import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The settled history of each building: its events older than a horizon (the first of January five
 * years before the as-of date), counted by what scoring groups them on. Every such event is in the
 * oldest age bucket whatever the as-of date of the next years, and a refresh rarely touches one, so
 * a scoring run reads these few rows instead of the most part of a busy building's events
 * (docs/adr/0015-settled-histories.md). A summary holds while the epochs it was counted at hold:
 * - `settled_history_epochs`: per building, raised by a merge that writes one of its events dated
 *   before the bound of any horizon in use (libs/db/src/settled-history.ts);
 * - `settled_history_epoch`: one for all, raised by every other statement that writes `events`
 *   (a first load, a whole file loaded again, SQL by hand), which the trigger below sees.
 */
export class SettledHistories1763703000000 implements MigrationInterface {
  name = 'SettledHistories1763703000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE settled_histories (
        bbl char(10) PRIMARY KEY,
        horizon date NOT NULL,
        global_epoch bigint NOT NULL,
        bbl_epoch bigint NOT NULL
      )`);
    await q.query(`
      CREATE TABLE settled_history_groups (
        bbl char(10) NOT NULL,
        source event_source NOT NULL,
        event_type event_type NOT NULL,
        category event_category NOT NULL,
        severity event_severity NOT NULL,
        status_open boolean,
        closes_on date,
        scoring_excluded boolean NOT NULL,
        undated boolean NOT NULL,
        count integer NOT NULL,
        amount float8 NOT NULL,
        newest_event_ids text NOT NULL,
        newest_event_dates text NOT NULL,
        newest_occurred_on date
      )`);
    await q.query(`CREATE INDEX settled_history_groups_bbl_idx ON settled_history_groups (bbl)`);
    await q.query(`CREATE TABLE settled_history_epochs (bbl char(10) PRIMARY KEY, epoch bigint NOT NULL)`);
    await q.query(`CREATE TABLE settled_history_epoch (epoch bigint NOT NULL)`);
    await q.query(`INSERT INTO settled_history_epoch VALUES (0)`);
    // a merge that keeps the summaries itself says so for its own statements (SET LOCAL)
    await q.query(`
      CREATE FUNCTION bhis_settle_events_written() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF coalesce(current_setting('bhis.settled_histories_kept', true), '') <> 'on' THEN
          UPDATE settled_history_epoch SET epoch = epoch + 1;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER events_settled_histories AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
        ON events FOR EACH STATEMENT EXECUTE FUNCTION bhis_settle_events_written()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER events_settled_histories ON events`);
    await q.query(`DROP FUNCTION bhis_settle_events_written()`);
    await q.query(`DROP TABLE settled_history_epoch, settled_history_epochs, settled_history_groups, settled_histories`);
  }
}
