import type { PoolClient } from 'pg';

/**
 * Sources whose repeated record is a refiling: the latest filing (by its date, then its place in the
 * file) replaces the earlier ones, instead of the most severe row leading. HPD bedbug reports: one
 * report per building and filing period, and a refiled report is the one in force.
 */
export const LATEST_FILING_WINS: readonly string[] = ['hpd_bedbugs'];

const arrayOf = (expression: string) => `CASE WHEN jsonb_typeof(${expression}) = 'array' THEN ${expression} ELSE '[]'::jsonb END`;
/**
 * A stored problem's id: what precedes the space of a compact problem (`"<id> <record>"`), the first
 * element of one compacted before (`[id, "<record>"]`), or `problem_id` of one kept whole (event-record.ts in @bhis/db).
 */
const PROBLEM_ID = `COALESCE(p ->> 'problem_id', CASE jsonb_typeof(p) WHEN 'string' THEN split_part(p #>> '{}', ' ', 1) WHEN 'array' THEN p ->> 0 END)`;
const storedRecord = `e.bbl = m.bbl AND e.source = m.source AND e.source_record_id = m.source_record_id AND e.event_type = m.event_type`;

/**
 * Record-level rules applied to a run's collapsed events (`merged`: the staging table itself when no
 * record key repeats, else the collapsed temp table of mergeEvents) before they are compared with
 * what is stored:
 * 1. an HPD complaint's problems merge with the stored ones by problem id (an incremental pull
 *    brings only the problems that changed; the new version of a problem replaces the old one), and
 *    its 311 keys are the union;
 * 2. for LATEST_FILING_WINS sources, the latest filing of a repeated record is kept, and a run never
 *    replaces a stored filing with an earlier one.
 */
export async function refineMerged(client: PoolClient, source: string, staging: string, merged: string, firstLoad: boolean): Promise<void> {
  if (source === 'hpd_complaints') await mergeStoredProblems(client, merged, firstLoad);
  if (LATEST_FILING_WINS.includes(source)) await keepLatestFilings(client, staging, merged);
}

/**
 * Complaints already in stored form and without a stored record (`lists_ordered`, set while staging:
 * adjacent-rows.ts) are left as they are; the rest get their lists merged and ordered here. A first
 * load has no stored records to look for.
 */
async function mergeStoredProblems(client: PoolClient, merged: string, firstLoad: boolean): Promise<void> {
  const stored = firstLoad ? 'false' : `EXISTS (SELECT 1 FROM events e WHERE ${storedRecord})`;
  await client.query(`
    UPDATE ${merged} m SET attributes = m.attributes || jsonb_build_object(
      'problems', (
        SELECT COALESCE(jsonb_agg(p ORDER BY ${PROBLEM_ID}::numeric NULLS LAST, p::text), '[]'::jsonb) FROM (
          SELECT DISTINCT ON (COALESCE(${PROBLEM_ID}, p::text)) p FROM (
            SELECT p, 0 AS pri FROM jsonb_array_elements(${arrayOf(`m.attributes -> 'problems'`)}) p
            UNION ALL
            SELECT p, 1 FROM events e, jsonb_array_elements(${arrayOf(`e.attributes -> 'problems'`)}) p WHERE ${storedRecord}
          ) x ORDER BY COALESCE(${PROBLEM_ID}, p::text), pri) y),
      'unique_keys_311', (
        SELECT COALESCE(jsonb_agg(k ORDER BY k), '[]'::jsonb) FROM (
          SELECT k FROM jsonb_array_elements(${arrayOf(`m.attributes -> 'unique_keys_311'`)}) k
          UNION
          SELECT k FROM events e, jsonb_array_elements(${arrayOf(`e.attributes -> 'unique_keys_311'`)}) k WHERE ${storedRecord}
        ) z))
     WHERE m.event_type = 'hpd_complaint' AND (NOT m.lists_ordered OR ${stored})`);
}

/**
 * A complaint's list attributes as mergeStoredProblems stores them, where that order does not depend
 * on the database: problems by numeric problem id when every problem has a distinct one, 311 keys
 * deduplicated and by text when every key is made of digits (the same order under any collation).
 * `ordered` is false when a list is missing or cannot be ordered here: the merge does it.
 */
export function inStoredListOrder(attributes: Record<string, unknown>): { attributes: Record<string, unknown>; ordered: boolean } {
  const { problems, unique_keys_311: keys } = attributes;
  if (!Array.isArray(problems) || !Array.isArray(keys)) return { attributes, ordered: false };
  if (problems.length <= 1 && keys.length <= 1) return { attributes, ordered: true };
  const ids = problems.map((p: unknown) => (typeof p === 'object' && p !== null ? (p as { problem_id?: unknown }).problem_id : undefined));
  const problemsOrderable = problems.length <= 1 || (ids.every((id) => Number.isSafeInteger(id)) && new Set(ids).size === ids.length);
  const keysOrderable = keys.length <= 1 || keys.every((k) => typeof k === 'string' && /^\d+$/.test(k));
  if (!problemsOrderable || !keysOrderable) return { attributes, ordered: false };
  const byId = problems.map((p, i) => ({ p, id: ids[i] as number })).sort((a, b) => a.id - b.id).map(({ p }) => p);
  return { attributes: { ...attributes, problems: byId, unique_keys_311: [...new Set(keys as string[])].sort() }, ordered: true };
}

async function keepLatestFilings(client: PoolClient, staging: string, merged: string): Promise<void> {
  // repeated filings exist only when the staged rows were collapsed into a table of their own
  if (merged !== staging) {
    await client.query(
    `UPDATE ${merged} m SET category = s.category, severity = s.severity, status = s.status, occurred_on = s.occurred_on,
            closed_on = s.closed_on, description = s.description, attributes = s.attributes, record = s.record, scoring_excluded = s.scoring_excluded,
            duplicate_of_hpd_complaint = s.duplicate_of_hpd_complaint
       FROM (SELECT DISTINCT ON (bbl, source, source_record_id, event_type) * FROM ${staging} WHERE source = ANY($1::event_source[])
              ORDER BY bbl, source, source_record_id, event_type, occurred_on DESC NULLS LAST, line_no DESC) s
      WHERE m.n > 1 AND m.bbl = s.bbl AND m.source = s.source AND m.source_record_id = s.source_record_id AND m.event_type = s.event_type`,
    [LATEST_FILING_WINS],
    );
  }
  await client.query(
    `DELETE FROM ${merged} m USING events e
      WHERE m.source = ANY($1::event_source[]) AND ${storedRecord} AND e.occurred_on > m.occurred_on`,
    [LATEST_FILING_WINS],
  );
}
