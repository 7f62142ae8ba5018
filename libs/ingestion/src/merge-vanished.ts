import type { PoolClient } from 'pg';
import { forgetSettledSql, keepingSettledHistories } from '@bhis/db';
import type { SourceDefinition } from '@bhis/sources';
import { setCurrentRegistrations, setOwners } from './merge-facts';

export interface VanishedStaging {
  events?: string;
  /** Lines skipped as unchanged (stage-records.ts): the stored records with their hash were seen. */
  unchanged?: string;
  pluto?: string;
  hpdBuildings?: string;
  registrations?: string;
  contacts?: string;
}

/**
 * For data sets the city republishes whole (refresh `whole_replace`): after a complete export is
 * merged, the source's records that the export no longer carries stop counting. Each is closed as of
 * the day it vanished (`closed_on`, open statuses become `closed`), marked `attributes.vanished_on`
 * (visible in the building's history) and excluded from scoring. A record that comes back is
 * rewritten by the next merge like any changed record, mark and exclusion included (its line's hash
 * is cleared, so its line is parsed again). PLUTO lots that
 * vanish keep their building, marked `facts.pluto_vanished_on`. Lots that leave HPD jurisdiction
 * are no longer `in_hpd_jurisdiction`, marked `facts.hpd_jurisdiction_vanished_on`. Registrations and
 * contacts are kept dated `vanished_on` and stop counting: the building's current registration, its
 * end date and its owner are chosen again among those still published. The next merge that carries
 * them again clears each mark.
 * Returns the number of records closed. Nothing is closed when the export brought no record at all.
 */
export async function closeVanished(
  client: PoolClient,
  source: SourceDefinition,
  staging: VanishedStaging,
  observedOn: string,
): Promise<number> {
  let closed = 0;
  const seen = staging.unchanged;
  if (staging.events && source.produces.events.length > 0) {
    // the settled histories of the buildings of old records closed here no longer hold (libs/db/src/settled-history.ts)
    const { rows } = await keepingSettledHistories(client, true, () => client.query<{ n: string }>(
      `WITH gone AS (
         UPDATE events e SET
           status = CASE WHEN e.status IN ('open', 'active') THEN 'closed' ELSE e.status END,
           closed_on = COALESCE(e.closed_on, $3::date),
           scoring_excluded = true,
           attributes = e.attributes || jsonb_build_object('vanished_on', $3::text),
           line_hash = NULL
          WHERE e.source = $1 AND e.event_type = ANY($2::event_type[]) AND NOT (e.attributes ? 'vanished_on')
            AND (EXISTS (SELECT 1 FROM ${staging.events})${seen ? ` OR EXISTS (SELECT 1 FROM ${seen})` : ''})
            AND NOT EXISTS (SELECT 1 FROM ${staging.events} s WHERE s.bbl = e.bbl AND s.source = e.source
                              AND s.source_record_id = e.source_record_id AND s.event_type = e.event_type)
            ${seen ? `AND (e.line_hash IS NULL OR NOT EXISTS (SELECT 1 FROM ${seen} u WHERE u.line_hash = e.line_hash))` : ''}
         RETURNING e.bbl, e.occurred_on),
       dirty AS (
         INSERT INTO dirty_buildings (bbl) SELECT DISTINCT bbl FROM gone
         ON CONFLICT (bbl) DO UPDATE SET marked_at = now() RETURNING bbl),
       forgotten AS (${forgetSettledSql('gone')})
       SELECT count(*) AS n FROM gone`,
      [source.key, source.produces.events, observedOn],
    ));
    closed += Number(rows[0].n);
  }
  if (staging.pluto) {
    await client.query(
      `UPDATE buildings b SET facts = b.facts - 'pluto_vanished_on', updated_at = now()
        WHERE b.facts ? 'pluto_vanished_on' AND EXISTS (SELECT 1 FROM ${staging.pluto} s WHERE s.bbl = b.bbl)`,
    );
    const { rowCount } = await client.query(
      `UPDATE buildings b SET facts = b.facts || jsonb_build_object('pluto_vanished_on', $1::text), updated_at = now()
        WHERE b.facts ? 'pluto_owner' AND NOT (b.facts ? 'pluto_vanished_on')
          AND EXISTS (SELECT 1 FROM ${staging.pluto})
          AND NOT EXISTS (SELECT 1 FROM ${staging.pluto} s WHERE s.bbl = b.bbl)`,
      [observedOn],
    );
    closed += rowCount ?? 0;
  }
  if (staging.hpdBuildings) {
    const { rows } = await client.query<{ n: string }>(
      `WITH gone AS (
         UPDATE buildings b SET in_hpd_jurisdiction = false,
                facts = b.facts || jsonb_build_object('hpd_jurisdiction_vanished_on', $1::text), updated_at = now()
          WHERE b.in_hpd_jurisdiction
            AND EXISTS (SELECT 1 FROM ${staging.hpdBuildings})
            AND NOT EXISTS (SELECT 1 FROM ${staging.hpdBuildings} s WHERE s.bbl = b.bbl)
         RETURNING b.bbl),
       dirty AS (INSERT INTO dirty_buildings (bbl) SELECT bbl FROM gone ON CONFLICT (bbl) DO UPDATE SET marked_at = now() RETURNING bbl)
       SELECT count(*) AS n FROM gone`,
      [observedOn],
    );
    closed += Number(rows[0].n);
  }
  if (staging.registrations) {
    closed += await markVanished(client, 'hpd_registrations', 'registration_id', staging.registrations, observedOn);
    await refreshBuildings(client, `SELECT bbl FROM hpd_registrations WHERE vanished_on = $1::date`, observedOn);
  }
  if (staging.contacts) {
    closed += await markVanished(client, 'hpd_registration_contacts', 'contact_id', staging.contacts, observedOn);
    await refreshBuildings(
      client,
      `SELECT r.bbl FROM hpd_registration_contacts c JOIN hpd_registrations r USING (registration_id) WHERE c.vanished_on = $1::date`,
      observedOn,
    );
  }
  return closed;
}

/** The current registration and owner of the buildings `bbls` selects, chosen again; the buildings are rescored. */
async function refreshBuildings(client: PoolClient, bbls: string, observedOn: string): Promise<void> {
  await setCurrentRegistrations(client, bbls, [observedOn]);
  await setOwners(client, bbls, [observedOn]);
  await client.query(`INSERT INTO dirty_buildings (bbl) SELECT DISTINCT bbl FROM (${bbls}) q(bbl) ON CONFLICT (bbl) DO UPDATE SET marked_at = now()`, [observedOn]);
}

/** Dates the rows of `table` the export (`staging`, matched on `key`) no longer carries. */
async function markVanished(client: PoolClient, table: string, key: string, staging: string, observedOn: string): Promise<number> {
  const { rowCount } = await client.query(
    `UPDATE ${table} t SET vanished_on = $1::date, updated_at = now()
      WHERE t.vanished_on IS NULL
        AND EXISTS (SELECT 1 FROM ${staging})
        AND NOT EXISTS (SELECT 1 FROM ${staging} s WHERE s.${key} = t.${key})`,
    [observedOn],
  );
  return rowCount ?? 0;
}
