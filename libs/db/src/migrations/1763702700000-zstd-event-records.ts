import { MigrationInterface, QueryRunner } from 'typeorm';
import { expandProblem, jsonbText, newestDeflateDictionary, PROBLEMS_DICTIONARY, readRecord, splitAttributes, type SplitAttributes } from '../event-record';
import { rewriteEvents, type RewrittenEvent, type StoredEventRow } from './rewrite-events';

/** Events with a compact record, or with problems (HPD complaints: each compact problem holds a record too). */
const WITH_RECORDS = `record IS NOT NULL OR (event_type = 'hpd_complaint' AND jsonb_typeof(attributes -> 'problems') = 'array')`;

/** A stored event written again by `split`: its record and its problems' records in the codec `split` picks. */
function rewritten(row: StoredEventRow, split: (attributes: Record<string, unknown>, description: string | null) => SplitAttributes): RewrittenEvent {
  const recorded = row.record ? readRecord(row.source, row.record) : { attributes: {}, description: null };
  const attributes: Record<string, unknown> = { ...row.attributes, ...recorded.attributes };
  const problems = attributes['problems'];
  if (Array.isArray(problems)) attributes['problems'] = problems.map((problem) => expandProblem(problem));
  const { sql, record } = split(attributes, row.description ?? recorded.description);
  return { attributes: jsonbText(sql), record, description: record ? null : (row.description ?? recorded.description) };
}

/**
 * Records (and the records of HPD complaint problems) are compressed with zstd and a dictionary
 * trained per source, dictionary id 3 (record-zstd.ts, docs/adr/0011-event-storage-and-load-path.md,
 * sixth step): a record costs a fourth of the CPU it cost with deflate, and fewer bytes. Every record
 * is written again, so that stored rows are byte for byte what a load writes now (a refresh compares
 * them as bytes); `down` writes the newest deflate dictionaries again. The old row versions stay
 * behind until a `VACUUM FULL events` (or a reload).
 */
export class ZstdEventRecords1763702700000 implements MigrationInterface {
  name = 'ZstdEventRecords1763702700000';

  async up(q: QueryRunner): Promise<void> {
    await rewriteEvents(q, WITH_RECORDS, (row) => rewritten(row, (attributes, description) => splitAttributes(row.source, attributes, description)));
  }

  async down(q: QueryRunner): Promise<void> {
    await rewriteEvents(q, WITH_RECORDS, (row) =>
      rewritten(row, (attributes, description) =>
        splitAttributes(row.source, attributes, description, newestDeflateDictionary(row.source), newestDeflateDictionary(PROBLEMS_DICTIONARY)),
      ),
    );
  }
}
