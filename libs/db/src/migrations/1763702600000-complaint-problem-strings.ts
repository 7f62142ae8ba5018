import { MigrationInterface, QueryRunner } from 'typeorm';

const complaintsWith = (kind: 'array' | 'string') =>
  `event_type = 'hpd_complaint' AND jsonb_path_exists(attributes, 'strict $.problems[*] ? (@.type() == "${kind}")', '{}', true)`;

/** A compact problem in either form (a problem kept whole is an object). */
const COMPACT = {
  array: `jsonb_typeof(p) = 'array'`,
  string: `jsonb_typeof(p) = 'string' AND p #>> '{}' ~ '^-?[0-9]+ [A-Za-z0-9+/]+={0,2}$'`,
};

/** The problems of `attributes`, each compact one rewritten by `rewrite` (a SQL expression of `p`), the others kept, in order. */
const problemsRewritten = (kind: 'array' | 'string', rewrite: string) => `
  UPDATE events SET attributes = jsonb_set(attributes, '{problems}', (
    SELECT jsonb_agg(CASE WHEN ${COMPACT[kind]} THEN ${rewrite} ELSE p END ORDER BY i)
      FROM jsonb_array_elements(attributes -> 'problems') WITH ORDINALITY AS x(p, i)))
   WHERE ${complaintsWith(kind)}`;

/**
 * A compact problem of an HPD complaint becomes one jsonb string, `"<problem_id> <base64 record>"`,
 * instead of `[problem_id, "<base64 record>"]` (compactProblem in event-record.ts,
 * docs/adr/0011-event-storage-and-load-path.md): the same id and the same record bytes, ~16 bytes
 * less per problem. Only the shape changes, so both ways are done in SQL; a problem kept whole (an
 * object) stays as it is. The old row versions stay behind until a `VACUUM FULL events` (or a reload).
 */
export class ComplaintProblemStrings1763702600000 implements MigrationInterface {
  name = 'ComplaintProblemStrings1763702600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(problemsRewritten('array', `to_jsonb((p ->> 0) || ' ' || (p ->> 1))`));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(problemsRewritten('string', `jsonb_build_array(split_part(p #>> '{}', ' ', 1)::numeric, split_part(p #>> '{}', ' ', 2))`));
  }
}
