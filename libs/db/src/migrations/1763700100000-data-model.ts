import { MigrationInterface, QueryRunner } from 'typeorm';

/** Number of hash partitions of `events` (by BBL): the distribution key if the table is ever sharded. */
export const EVENT_PARTITIONS = 16;

/**
 * Buildings, events, sources and ingest runs, scores and their history.
 * See docs/adr/0003-data-model.md for the reasoning behind the shapes.
 */
export class DataModel1763700100000 implements MigrationInterface {
  name = 'DataModel1763700100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE buildings (
        bbl char(10) PRIMARY KEY CHECK (bbl ~ '^[1-5][0-9]{9}$'),
        borough smallint NOT NULL,
        block integer NOT NULL,
        lot integer NOT NULL,
        house_number text,
        street_name text,
        address text NOT NULL,
        city text,
        zipcode text,
        residential_units integer NOT NULL DEFAULT 0,
        total_units integer,
        year_built integer,
        building_class text,
        num_buildings integer,
        num_floors numeric,
        owner_name text,
        latitude double precision,
        longitude double precision,
        bins integer[] NOT NULL DEFAULT '{}',
        hpd_building_ids integer[] NOT NULL DEFAULT '{}',
        in_hpd_jurisdiction boolean NOT NULL DEFAULT false,
        hpd_legal_units integer,
        registration_id integer,
        registration_end_date date,
        facts jsonb NOT NULL DEFAULT '{}',
        -- normalized address for search (see libs/domain address normalization)
        address_search text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX buildings_address_trgm_idx ON buildings USING gin (address_search gin_trgm_ops)`);
    await q.query(`CREATE INDEX buildings_address_prefix_idx ON buildings (address_search text_pattern_ops)`);
    await q.query(`CREATE INDEX buildings_owner_trgm_idx ON buildings USING gin (upper(owner_name) gin_trgm_ops)`);
    await q.query(`CREATE INDEX buildings_zipcode_idx ON buildings (zipcode)`);
    await q.query(`CREATE INDEX buildings_bins_idx ON buildings USING gin (bins)`);

    // BIN -> BBL map from PLUTO and HPD jurisdiction (placeholder BINs x000000 are never stored).
    await q.query(`
      CREATE TABLE bin_bbl (
        bin integer PRIMARY KEY,
        bbl char(10) NOT NULL,
        source text NOT NULL
      )`);
    await q.query(`CREATE INDEX bin_bbl_bbl_idx ON bin_bbl (bbl)`);

    await q.query(`CREATE SEQUENCE events_id_seq AS bigint`);
    await q.query(`
      CREATE TABLE events (
        id bigint NOT NULL DEFAULT nextval('events_id_seq'),
        bbl char(10) NOT NULL,
        source text NOT NULL,
        source_record_id text NOT NULL,
        event_type text NOT NULL,
        category text NOT NULL,
        severity text NOT NULL,
        status text,
        occurred_on date,
        closed_on date,
        description text,
        attributes jsonb NOT NULL DEFAULT '{}',
        -- excluded from the chronic score (e.g. FEMA disaster repairs); still listed as evidence
        scoring_excluded boolean NOT NULL DEFAULT false,
        row_hash text NOT NULL,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (bbl, id),
        UNIQUE (bbl, source, source_record_id, event_type)
      ) PARTITION BY HASH (bbl)`);
    for (let i = 0; i < EVENT_PARTITIONS; i++) {
      await q.query(
        `CREATE TABLE events_p${String(i).padStart(2, '0')} PARTITION OF events FOR VALUES WITH (MODULUS ${EVENT_PARTITIONS}, REMAINDER ${i})`,
      );
    }
    await q.query(`CREATE INDEX events_timeline_idx ON events (bbl, occurred_on DESC NULLS LAST, id DESC)`);
    await q.query(`CREATE INDEX events_record_idx ON events (source, source_record_id)`);

    await q.query(`
      CREATE TABLE sources (
        key text PRIMARY KEY,
        name text NOT NULL,
        agency text NOT NULL,
        dataset_id text,
        url text,
        cadence text NOT NULL,
        last_refreshed_at timestamptz,
        latest_record_date date,
        records bigint NOT NULL DEFAULT 0,
        status text NOT NULL DEFAULT 'never_loaded',
        rows_updated_at bigint,
        last_run_id uuid
      )`);

    await q.query(`
      CREATE TABLE ingest_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        source text NOT NULL,
        status text NOT NULL DEFAULT 'queued',
        trigger text NOT NULL DEFAULT 'cli',
        input text,
        job_id text,
        attempt integer NOT NULL DEFAULT 1,
        counts jsonb NOT NULL DEFAULT '{}',
        progress jsonb NOT NULL DEFAULT '{}',
        error text,
        queued_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        duration_ms integer
      )`);
    await q.query(`CREATE INDEX ingest_runs_source_idx ON ingest_runs (source, queued_at DESC)`);

    await q.query(`
      CREATE TABLE rejected_rows (
        id bigserial PRIMARY KEY,
        run_id uuid NOT NULL REFERENCES ingest_runs (id) ON DELETE CASCADE,
        source text NOT NULL,
        line_number integer,
        reason text NOT NULL,
        raw text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX rejected_rows_run_idx ON rejected_rows (run_id)`);

    await q.query(`
      CREATE TABLE scoring_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        kind text NOT NULL,
        scorer_id text NOT NULL,
        as_of date NOT NULL,
        status text NOT NULL DEFAULT 'queued',
        trigger text NOT NULL DEFAULT 'cli',
        job_id text,
        counts jsonb NOT NULL DEFAULT '{}',
        error text,
        queued_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        duration_ms integer
      )`);

    // The current score per building, as a ready-to-serve document (scores, counts, confidence, explanation).
    await q.query(`
      CREATE TABLE building_scores (
        bbl char(10) PRIMARY KEY REFERENCES buildings (bbl) ON DELETE CASCADE,
        run_id uuid NOT NULL,
        as_of date NOT NULL,
        scorer_id text NOT NULL,
        total_score smallint NOT NULL,
        health_score smallint NOT NULL,
        grade char(1) NOT NULL,
        components jsonb NOT NULL,
        flags text[] NOT NULL DEFAULT '{}',
        scores jsonb NOT NULL,
        counts jsonb NOT NULL,
        confidence jsonb NOT NULL,
        explanation jsonb NOT NULL DEFAULT '{}',
        feature_hash text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX building_scores_total_idx ON building_scores (total_score DESC, bbl)`);
    await q.query(`CREATE INDEX building_scores_grade_idx ON building_scores (grade)`);

    await q.query(`
      CREATE TABLE score_history (
        bbl char(10) NOT NULL,
        as_of date NOT NULL,
        scorer_id text NOT NULL,
        run_id uuid NOT NULL,
        total_score smallint NOT NULL,
        health_score smallint NOT NULL,
        grade char(1) NOT NULL,
        components jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (bbl, as_of, scorer_id)
      )`);

    // Grade changes found by a scoring run; the portfolio monitors turn them into webhook deliveries.
    await q.query(`
      CREATE TABLE grade_crossings (
        id bigserial PRIMARY KEY,
        run_id uuid NOT NULL,
        bbl char(10) NOT NULL,
        as_of date NOT NULL,
        scorer_id text NOT NULL,
        previous_grade char(1) NOT NULL,
        previous_score smallint NOT NULL,
        current_grade char(1) NOT NULL,
        current_score smallint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (run_id, bbl)
      )`);
    await q.query(`CREATE INDEX grade_crossings_bbl_idx ON grade_crossings (bbl)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'grade_crossings',
      'score_history',
      'building_scores',
      'scoring_runs',
      'rejected_rows',
      'ingest_runs',
      'sources',
      'events',
      'bin_bbl',
      'buildings',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
    await q.query(`DROP SEQUENCE IF EXISTS events_id_seq`);
  }
}
