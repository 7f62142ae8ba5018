import type { ReadPool } from '@bhis/db';
import { COMPONENT_KEYS, ComponentKey, Grade, GRADES } from '@bhis/domain';
import type { BblList } from '../bbl-list';

export const WORST_BUILDINGS = 25;
/** Flags of buildings the model cannot know (docs/methodology.md, Known limits): listed apart from the worst. */
export const UNCERTAIN_FLAGS = ['public-housing', 'units-unknown'];

export interface PortfolioAnalysis {
  summary: { requested: number; found: number; not_found: number; invalid: number; residential_units: number };
  grade_distribution: Record<Grade, { count: number; share: number }>;
  worst_buildings: { bbl: string; address: string; total_score: number; grade: string; flags: string[] }[];
  /** Buildings the model cannot know, highest total first (at most WORST_BUILDINGS): never among worst_buildings. */
  uncertain_buildings: { bbl: string; address: string; total_score: number; grade: string; flags: string[] }[];
  risk_metrics: {
    mean: number | null;
    median: number | null;
    p90: number | null;
    unit_weighted_mean: number | null;
    share_buildings_d_or_f: number;
    share_units_d_or_f: number;
  };
  component_means: Record<ComponentKey, number | null>;
  flag_summary: Record<string, number>;
  not_found: string[];
}

interface AnalysisRow {
  found: number;
  units: string;
  mean: number | null;
  median: number | null;
  p90: number | null;
  unit_weighted_mean: number | null;
  df_buildings: number;
  df_units: string;
  grades: Record<string, number> | null;
  components: Record<string, number | null>;
  worst: PortfolioAnalysis['worst_buildings'];
  uncertain: PortfolioAnalysis['uncertain_buildings'];
  flags: Record<string, number>;
  not_found: string[];
}

const componentMeans = COMPONENT_KEYS.map((key) => `'${key}', avg((components -> '${key}' ->> 'score')::float8)`).join(', ');

/**
 * The whole analysis in one statement: the requested BBLs go in as one array, the scored buildings
 * among them are read once (by primary key) and every aggregate is computed in Postgres.
 */
const ANALYSIS_SQL = `
WITH requested AS (
  SELECT r.bbl, r.ord FROM unnest($1::text[]) WITH ORDINALITY AS r(bbl, ord)
), found AS MATERIALIZED (
  SELECT s.bbl::text AS bbl, b.address, COALESCE(b.residential_units, 0)::float8 AS units,
         s.total_score::float8 AS score, s.grade::text AS grade, s.flags, s.components
    FROM requested r
    JOIN building_scores s ON s.bbl = r.bbl::char(10)
    JOIN buildings b ON b.bbl = s.bbl
), stats AS (
  SELECT count(*)::int AS found,
         COALESCE(sum(units), 0)::bigint AS units,
         avg(score) AS mean,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY score) AS median,
         percentile_cont(0.9) WITHIN GROUP (ORDER BY score) AS p90,
         sum(score * units) / NULLIF(sum(units), 0) AS unit_weighted_mean,
         count(*) FILTER (WHERE grade IN ('D', 'F'))::int AS df_buildings,
         COALESCE(sum(units) FILTER (WHERE grade IN ('D', 'F')), 0)::bigint AS df_units,
         json_build_object(${componentMeans}) AS components
    FROM found
)
SELECT stats.*,
       (SELECT json_object_agg(grade, n) FROM (SELECT grade, count(*)::int AS n FROM found GROUP BY grade) g) AS grades,
       (SELECT COALESCE(json_agg(json_build_object('bbl', w.bbl, 'address', w.address, 'total_score', w.score::int, 'grade', w.grade, 'flags', w.flags)
                                 ORDER BY w.score DESC, w.bbl), '[]')
          FROM (SELECT * FROM found WHERE NOT (flags && $2::text[]) ORDER BY score DESC, bbl LIMIT ${WORST_BUILDINGS}) w) AS worst,
       (SELECT COALESCE(json_agg(json_build_object('bbl', w.bbl, 'address', w.address, 'total_score', w.score::int, 'grade', w.grade, 'flags', w.flags)
                                 ORDER BY w.score DESC, w.bbl), '[]')
          FROM (SELECT * FROM found WHERE flags && $2::text[] ORDER BY score DESC, bbl LIMIT ${WORST_BUILDINGS}) w) AS uncertain,
       (SELECT COALESCE(json_object_agg(flag, n ORDER BY n DESC, flag), '{}')
          FROM (SELECT flag, count(*)::int AS n FROM found, unnest(found.flags) AS flag GROUP BY flag) f) AS flags,
       (SELECT COALESCE(json_agg(r.bbl ORDER BY r.ord), '[]')
          FROM requested r WHERE NOT EXISTS (SELECT 1 FROM found WHERE found.bbl = r.bbl)) AS not_found
  FROM stats`;

const round = (value: number | null, places: number): number | null =>
  value === null || value === undefined ? null : Math.round(value * 10 ** places) / 10 ** places;
const share = (part: number, whole: number): number => (whole > 0 ? (round(part / whole, 4) as number) : 0);

/** Risk analysis of a set of buildings (docs/api-decisions.md, POST /portfolio/analyze). */
export async function analyzePortfolio(pool: ReadPool, list: BblList): Promise<PortfolioAnalysis> {
  const { rows } = await pool.query<AnalysisRow>(ANALYSIS_SQL, [list.valid, UNCERTAIN_FLAGS]);
  const row = rows[0];
  const found = row.found;
  const units = Number(row.units);
  const gradeCounts = row.grades ?? {};
  return {
    summary: {
      requested: list.requested,
      found,
      not_found: row.not_found.length,
      invalid: list.invalid.length,
      residential_units: units,
    },
    grade_distribution: Object.fromEntries(
      GRADES.map((grade) => [grade, { count: gradeCounts[grade] ?? 0, share: share(gradeCounts[grade] ?? 0, found) }]),
    ) as PortfolioAnalysis['grade_distribution'],
    worst_buildings: row.worst,
    uncertain_buildings: row.uncertain,
    risk_metrics: {
      mean: round(row.mean, 1),
      median: round(row.median, 1),
      p90: round(row.p90, 1),
      unit_weighted_mean: round(row.unit_weighted_mean, 1),
      share_buildings_d_or_f: share(row.df_buildings, found),
      share_units_d_or_f: share(Number(row.df_units), units),
    },
    component_means: Object.fromEntries(COMPONENT_KEYS.map((key) => [key, round(row.components[key] ?? null, 1)])) as Record<ComponentKey, number | null>,
    flag_summary: row.flags,
    not_found: row.not_found,
  };
}
