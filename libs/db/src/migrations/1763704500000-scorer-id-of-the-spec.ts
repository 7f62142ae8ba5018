import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The model the interface contract names is `distress_v10_2` (docs/interface-spec.md, `scorer_id`); the
 * id `distress_v11_0` was never released. Every stored row that carries it takes the contract's id:
 * the current scores (column and documents), the history points, the grade crossings, the scoring runs
 * and the webhook payloads not yet sent (a retry sends the bytes of its first attempt). A history point of the same building and day already
 * stored under `distress_v10_2` is an older computation of that day and gives way to the renamed one.
 * No grade changes, so the first run after it records no `scorer-change`.
 */
const OLD = 'distress_v11_0';
const NEW = 'distress_v10_2';

export class ScorerIdOfTheSpec1763704500000 implements MigrationInterface {
  name = 'ScorerIdOfTheSpec1763704500000';

  async up(q: QueryRunner): Promise<void> {
    await rename(q, OLD, NEW);
  }

  async down(q: QueryRunner): Promise<void> {
    await rename(q, NEW, OLD);
  }
}

async function rename(q: QueryRunner, from: string, to: string): Promise<void> {
  await q.query(
    `DELETE FROM score_history h USING score_history o
      WHERE h.scorer_id = $2 AND o.scorer_id = $1 AND o.bbl = h.bbl AND o.as_of = h.as_of`,
    [from, to],
  );
  await q.query(`UPDATE score_history SET scorer_id = $2 WHERE scorer_id = $1`, [from, to]);
  await q.query(
    `UPDATE building_scores
        SET scorer_id = $2,
            scores = CASE WHEN scores ? 'scorer_id' THEN jsonb_set(scores, '{scorer_id}', to_jsonb($2::text)) ELSE scores END,
            document = replace(document::text, $3, $4)::json
      WHERE scorer_id = $1`,
    [from, to, JSON.stringify(from), JSON.stringify(to)],
  );
  await q.query(`UPDATE grade_crossings SET scorer_id = $2 WHERE scorer_id = $1`, [from, to]);
  await q.query(`UPDATE scoring_runs SET scorer_id = $2 WHERE scorer_id = $1`, [from, to]);
  await q.query(
    `UPDATE webhook_deliveries SET payload = replace(payload, $1, $2)
      WHERE status = 'pending' AND attempts = 0 AND strpos(payload, $1) > 0`,
    [JSON.stringify(from), JSON.stringify(to)],
  );
}
