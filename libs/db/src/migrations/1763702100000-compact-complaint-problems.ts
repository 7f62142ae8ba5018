import { MigrationInterface, QueryRunner } from 'typeorm';
import { compactProblem, expandProblem, jsonbText } from '../event-record';
import { rewriteEvents } from './rewrite-events';

// strict: in lax mode a problem that is an array would be unwrapped before the test
const withProblems = (...kinds: ('object' | 'array' | 'string')[]) =>
  `event_type = 'hpd_complaint' AND jsonb_path_exists(attributes, 'strict $.problems[*] ? (${kinds.map((k) => `@.type() == "${k}"`).join(' || ')})', '{}', true)`;

const mapProblems = (attributes: Record<string, unknown>, map: (problem: unknown) => unknown): string => {
  const problems = attributes['problems'];
  return jsonbText(Array.isArray(problems) ? { ...attributes, problems: problems.map(map) } : attributes);
};

/**
 * An HPD complaint's problems are stored as `[problem_id, "<compact record>"]` (compactProblem in
 * event-record.ts, docs/adr/0011-event-storage-and-load-path.md): ~330 bytes of jsonb per problem
 * become ~60. Stored complaints are converted here; `down` puts the problems back whole.
 * compactProblem now writes the string form of migration 1763702600000-complaint-problem-strings;
 * `down` expands both forms.
 */
export class CompactComplaintProblems1763702100000 implements MigrationInterface {
  name = 'CompactComplaintProblems1763702100000';

  async up(q: QueryRunner): Promise<void> {
    await rewriteEvents(q, withProblems('object'), (row) => ({ ...row, attributes: mapProblems(row.attributes, (problem) => compactProblem(problem)) }));
  }

  async down(q: QueryRunner): Promise<void> {
    await rewriteEvents(q, withProblems('array', 'string'), (row) => ({ ...row, attributes: mapProblems(row.attributes, expandProblem) }));
  }
}
