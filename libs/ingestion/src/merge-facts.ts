import type { PoolClient } from 'pg';

export interface FactsMergeCounts {
  outOfScopeRecords: number;
  inserted: number;
  updated: number;
}

const CITY_BY_BOROUGH = `CASE s.borough WHEN 1 THEN 'NEW YORK' WHEN 2 THEN 'BRONX' WHEN 3 THEN 'BROOKLYN' WHEN 4 THEN 'QUEENS' ELSE 'STATEN ISLAND' END`;

/** Sets the owner shown for the buildings `bbls` (a subquery of BBLs) selects. */
export async function setOwners(client: PoolClient, bbls: string, values: unknown[] = []): Promise<void> {
  await client.query(`UPDATE buildings b SET owner_name = ${OWNER_OF('b')}, updated_at = now() WHERE b.bbl IN (${bbls})`, values);
}

/**
 * Sets the current registration (and its end date) of the buildings `bbls` (a subquery of BBLs)
 * selects: the one ending last among those the latest export still carries, none when none is left.
 */
export async function setCurrentRegistrations(client: PoolClient, bbls: string, values: unknown[] = []): Promise<void> {
  await client.query(`
    UPDATE buildings b SET registration_id = cur.registration_id, registration_end_date = cur.registration_end_date, updated_at = now()
      FROM (SELECT x.bbl, r.registration_id, r.registration_end_date FROM (SELECT DISTINCT bbl FROM (${bbls}) q(bbl)) x
              LEFT JOIN LATERAL (SELECT registration_id, registration_end_date FROM hpd_registrations r
                                  WHERE r.bbl = x.bbl AND r.vanished_on IS NULL
                                  ORDER BY registration_end_date DESC NULLS LAST, last_registration_date DESC NULLS LAST, registration_id DESC
                                  LIMIT 1) r ON true) cur
     WHERE b.bbl = cur.bbl`, values);
}

/** The owner shown for a building: the owner of record of its current HPD registration, else PLUTO's. */
const OWNER_OF = (alias: string) => `COALESCE(
  (SELECT c.name FROM hpd_registration_contacts c
    WHERE c.registration_id = ${alias}.registration_id AND c.name IS NOT NULL AND c.vanished_on IS NULL
      AND c.contact_type IN ('CorporateOwner', 'IndividualOwner', 'JointOwner')
    ORDER BY array_position(ARRAY['CorporateOwner','IndividualOwner','JointOwner'], c.contact_type), c.contact_id LIMIT 1),
  ${alias}.facts ->> 'pluto_owner')`;

/**
 * A lot's management program from its HPD buildings: public housing (NYCHA) when any building of the
 * lot is, else the program of the newest row.
 */
const MANAGEMENT_PROGRAM_OF = (alias: string) => `CASE WHEN bool_or(${alias}.management_program = 'NYCHA') THEN 'NYCHA'
            ELSE (array_agg(${alias}.management_program ORDER BY ${alias}.line_no DESC) FILTER (WHERE ${alias}.management_program IS NOT NULL))[1] END`;

async function upsertCounts(client: PoolClient, sql: string, values: unknown[] = []): Promise<{ inserted: number; updated: number }> {
  const { rows } = await client.query<{ inserted: string; updated: string }>(
    `WITH up AS (${sql}) SELECT count(*) FILTER (WHERE inserted) AS inserted, count(*) FILTER (WHERE NOT inserted) AS updated FROM up`,
    values,
  );
  return { inserted: Number(rows[0].inserted), updated: Number(rows[0].updated) };
}

async function deleteCounting(client: PoolClient, sql: string): Promise<number> {
  const { rows } = await client.query<{ n: string }>(`WITH gone AS (${sql} RETURNING line_no) SELECT count(DISTINCT line_no) AS n FROM gone`);
  return Number(rows[0].n);
}

/**
 * PLUTO: lots with residential units are buildings of the universe (and lots already in it through
 * HPD jurisdiction get PLUTO's facts); other lots are out of scope.
 */
export async function mergePluto(client: PoolClient, table: string): Promise<FactsMergeCounts> {
  const outOfScopeRecords = await deleteCounting(
    client,
    `DELETE FROM ${table} s WHERE COALESCE(s.residential_units, 0) <= 0
       AND NOT EXISTS (SELECT 1 FROM buildings b WHERE b.bbl = s.bbl)`,
  );
  const counts = await upsertCounts(
    client,
    `INSERT INTO buildings AS b (bbl, borough, block, lot, house_number, street_name, address, city, zipcode,
                                 residential_units, total_units, year_built, building_class, num_buildings, num_floors,
                                 owner_name, latitude, longitude, address_search, facts)
     SELECT DISTINCT ON (s.bbl) s.bbl, s.borough, s.block, s.lot, s.house_number, s.street_name,
            COALESCE(s.address, ''), ${CITY_BY_BOROUGH}, s.zipcode, COALESCE(s.residential_units, 0), s.total_units,
            NULLIF(s.year_built, 0), s.building_class, s.num_buildings, s.num_floors, s.owner_name, s.latitude, s.longitude,
            COALESCE(s.address_search, ''), jsonb_build_object('pluto_owner', s.owner_name)
       FROM ${table} s ORDER BY s.bbl, s.line_no DESC
     ON CONFLICT (bbl) DO UPDATE SET
       house_number = EXCLUDED.house_number, street_name = EXCLUDED.street_name, address = EXCLUDED.address,
       city = EXCLUDED.city, zipcode = EXCLUDED.zipcode,
       residential_units = GREATEST(EXCLUDED.residential_units, COALESCE(b.hpd_legal_units, 0)),
       total_units = EXCLUDED.total_units, year_built = EXCLUDED.year_built, building_class = EXCLUDED.building_class,
       num_buildings = EXCLUDED.num_buildings, num_floors = EXCLUDED.num_floors, latitude = EXCLUDED.latitude,
       longitude = EXCLUDED.longitude, address_search = EXCLUDED.address_search,
       facts = b.facts || EXCLUDED.facts, updated_at = now()
     RETURNING (xmax = 0) AS inserted`,
  );
  await client.query(
    `UPDATE buildings b SET owner_name = ${OWNER_OF('b')} WHERE b.bbl IN (SELECT bbl FROM ${table})`,
  );
  await client.query(`INSERT INTO dirty_buildings (bbl) SELECT DISTINCT bbl FROM ${table} ON CONFLICT (bbl) DO UPDATE SET marked_at = now()`);
  return { outOfScopeRecords, ...counts };
}

/**
 * HPD jurisdiction: active HPD buildings join the universe (with HPD's address when PLUTO has no
 * residential units for the lot) and give the BIN -> BBL map and the legal unit counts.
 */
export async function mergeHpdBuildings(client: PoolClient, table: string): Promise<FactsMergeCounts> {
  const outOfScopeRecords = await deleteCounting(client, `DELETE FROM ${table} s WHERE s.record_status IS DISTINCT FROM 'Active'`);
  await client.query(`
    INSERT INTO bin_bbl (bin, bbl, source)
    SELECT DISTINCT ON (bin) bin, bbl, 'hpd_jurisdiction' FROM ${table}
     WHERE bin IS NOT NULL ORDER BY bin, line_no DESC
    ON CONFLICT (bin) DO UPDATE SET bbl = EXCLUDED.bbl, source = EXCLUDED.source`);
  const counts = await upsertCounts(
    client,
    `INSERT INTO buildings AS b (bbl, borough, block, lot, house_number, street_name, address, city, zipcode,
                                 residential_units, in_hpd_jurisdiction, hpd_legal_units, hpd_building_ids, address_search,
                                 management_program)
     SELECT s.bbl, substr(s.bbl, 1, 1)::smallint, substr(s.bbl, 2, 5)::integer, substr(s.bbl, 7, 4)::integer,
            min(s.house_number), min(s.street_name), trim(COALESCE(min(s.house_number), '') || ' ' || COALESCE(min(s.street_name), '')),
            CASE substr(s.bbl, 1, 1) WHEN '1' THEN 'NEW YORK' WHEN '2' THEN 'BRONX' WHEN '3' THEN 'BROOKLYN' WHEN '4' THEN 'QUEENS' ELSE 'STATEN ISLAND' END,
            min(s.zipcode), COALESCE(sum(s.legal_units), 0), true, sum(s.legal_units),
            array_agg(DISTINCT s.hpd_building_id), COALESCE(min(s.address_search), ''),
            ${MANAGEMENT_PROGRAM_OF('s')}
       FROM ${table} s GROUP BY s.bbl
     ON CONFLICT (bbl) DO UPDATE SET
       in_hpd_jurisdiction = true, facts = b.facts - 'hpd_jurisdiction_vanished_on', hpd_legal_units = EXCLUDED.hpd_legal_units,
       hpd_building_ids = EXCLUDED.hpd_building_ids, management_program = EXCLUDED.management_program,
       residential_units = GREATEST(b.residential_units, COALESCE(EXCLUDED.hpd_legal_units, 0)), updated_at = now()
     RETURNING (xmax = 0) AS inserted`,
  );
  await client.query(`
    UPDATE buildings b SET bins = ARRAY(SELECT m.bin FROM bin_bbl m WHERE m.bbl = b.bbl ORDER BY m.bin)
     WHERE b.bbl IN (SELECT bbl FROM ${table})`);
  await client.query(`INSERT INTO dirty_buildings (bbl) SELECT DISTINCT bbl FROM ${table} ON CONFLICT (bbl) DO UPDATE SET marked_at = now()`);
  return { outOfScopeRecords, ...counts };
}

/** Registrations: registration -> BBL, and each building's current registration and its end date. */
export async function mergeRegistrations(client: PoolClient, table: string): Promise<FactsMergeCounts> {
  const outOfScopeRecords = await deleteCounting(
    client,
    `DELETE FROM ${table} s WHERE NOT EXISTS (SELECT 1 FROM buildings b WHERE b.bbl = s.bbl)`,
  );
  const counts = await upsertCounts(
    client,
    `INSERT INTO hpd_registrations AS r (registration_id, bbl, bin, hpd_building_id, last_registration_date, registration_end_date)
     SELECT DISTINCT ON (registration_id) registration_id, bbl, bin, hpd_building_id, last_registration_date, registration_end_date
       FROM ${table} ORDER BY registration_id, line_no DESC
     ON CONFLICT (registration_id) DO UPDATE SET bbl = EXCLUDED.bbl, bin = EXCLUDED.bin, hpd_building_id = EXCLUDED.hpd_building_id,
       last_registration_date = EXCLUDED.last_registration_date, registration_end_date = EXCLUDED.registration_end_date,
       vanished_on = NULL, updated_at = now()
     RETURNING (xmax = 0) AS inserted`,
  );
  await client.query(`
    INSERT INTO bin_bbl (bin, bbl, source) SELECT DISTINCT ON (bin) bin, bbl, 'hpd_registrations' FROM ${table}
     WHERE bin IS NOT NULL ORDER BY bin, line_no DESC
    ON CONFLICT (bin) DO NOTHING`);
  await setCurrentRegistrations(client, `SELECT bbl FROM ${table}`);
  await setOwners(client, `SELECT bbl FROM ${table}`);
  await client.query(`INSERT INTO dirty_buildings (bbl) SELECT DISTINCT bbl FROM ${table} ON CONFLICT (bbl) DO UPDATE SET marked_at = now()`);
  return { outOfScopeRecords, ...counts };
}

/** Registration contacts: the owner names of the buildings whose current registration they belong to. */
export async function mergeContacts(client: PoolClient, table: string): Promise<FactsMergeCounts> {
  const outOfScopeRecords = await deleteCounting(
    client,
    `DELETE FROM ${table} s WHERE NOT EXISTS (SELECT 1 FROM hpd_registrations r WHERE r.registration_id = s.registration_id)`,
  );
  const counts = await upsertCounts(
    client,
    `INSERT INTO hpd_registration_contacts (contact_id, registration_id, contact_type, name, business_address)
     SELECT DISTINCT ON (contact_id) contact_id, registration_id, contact_type, name, business_address
       FROM ${table} ORDER BY contact_id, line_no DESC
     ON CONFLICT (contact_id) DO UPDATE SET registration_id = EXCLUDED.registration_id, contact_type = EXCLUDED.contact_type,
       name = EXCLUDED.name, business_address = EXCLUDED.business_address, vanished_on = NULL, updated_at = now()
     RETURNING (xmax = 0) AS inserted`,
  );
  await client.query(`
    UPDATE buildings b SET owner_name = ${OWNER_OF('b')}, updated_at = now()
     WHERE b.registration_id IN (SELECT registration_id FROM ${table})`);
  return { outOfScopeRecords, ...counts };
}
