import { BOROUGH_NAMES } from '@bhis/domain';

const BOROUGH_NAME_SQL = `CASE b.borough ${Object.entries(BOROUGH_NAMES)
  .map(([code, name]) => `WHEN ${Number(code)} THEN '${name.replace(/'/g, "''")}'`)
  .join(' ')} END`;

/**
 * The building object as JSON text: the document the scoring worker stored, served as is; a building
 * not scored yet gets its facts with `scores`, `counts` and `confidence` null (json_build_object keeps
 * the field order of docs/interface-spec.md). Expects `buildings b LEFT JOIN building_scores s`.
 */
export const BUILDING_DOCUMENT_SQL = `CASE WHEN s.bbl IS NULL OR s.document::text = '{}' THEN json_build_object(
    'bbl', b.bbl::text, 'address', b.address, 'city', b.city, 'zipcode', b.zipcode,
    'borough', b.borough, 'borough_name', ${BOROUGH_NAME_SQL},
    'residential_units', b.residential_units, 'total_units', b.total_units, 'year_built', b.year_built,
    'building_class', b.building_class, 'owner_name', b.owner_name,
    'latitude', b.latitude, 'longitude', b.longitude,
    'scores', NULL, 'counts', NULL, 'confidence', NULL)::text
  ELSE s.document::text END`;

/** The explanation as JSON text, `null` for a building not scored yet. */
export const EXPLANATION_SQL = `CASE WHEN s.bbl IS NULL THEN 'null' ELSE s.explanation::text END`;
