import { CATEGORIES, EVENT_TYPES, EventCategory, EventType, SEVERITIES, Severity, isValidBbl } from '@bhis/domain';
import { z } from 'zod';
import { AGE_BUCKET_KEYS, AgeBucket } from './age-buckets';
import { SOURCE_KEYS, SourceKey } from '@bhis/sources';

/** Building facts, as stored in `buildings`. */
export interface BuildingFacts {
  bbl: string;
  /** PLUTO residential units (0 when unknown). */
  residential_units: number;
  total_units: number | null;
  year_built: number | null;
  /** PLUTO building class, e.g. `C4`. */
  building_class: string | null;
  /** Buildings on the lot (PLUTO NumBldgs); more than one lowers confidence. */
  num_buildings: number | null;
  in_hpd_jurisdiction: boolean;
  hpd_legal_units: number | null;
  /** End date of the last HPD registration (YYYY-MM-DD), null when the building never registered. */
  registration_end_date: string | null;
  /** HPD jurisdiction `ManagementProgram` (e.g. `PVT`, `NYCHA`), null or absent when unknown. */
  management_program?: string | null;
  /** Owner of record (HPD registration, else PLUTO), null or absent when unknown. */
  owner_name?: string | null;
}

/**
 * One cell of the event histogram: the events of one building grouped by
 * (source, event_type, category, severity, open, scoring_excluded, age_bucket).
 */
export interface HistogramRow {
  source: SourceKey;
  event_type: EventType;
  category: EventCategory;
  severity: Severity;
  /** `status IN ('open', 'active')`. */
  open: boolean;
  /** `events.scoring_excluded` (e.g. FEMA disaster repairs): evidence and flags only, never the score. */
  scoring_excluded: boolean;
  /** Bucket of `occurred_on` relative to `as_of` (see AGE_BUCKETS / ageBucketSql). */
  age_bucket: AgeBucket;
  count: number;
  /**
   * Sum of the events' money amount in dollars, 0 when they have none: emergency repair charge
   * (OMO/HWO amount), ECB balance due, HPD litigation penalty.
   */
  amount: number;
  /** Up to 3 newest event ids of the cell (events.id as text), newest first. */
  newest_event_ids: string[];
  /** occurred_on of the newest event of the cell (YYYY-MM-DD), null when none is dated. */
  newest_occurred_on: string | null;
}

/** What the `sources` table says about one source, shared by every building of a run. */
export interface SourceFreshness {
  /** ISO timestamp (or date) of the last successful refresh, null when never loaded. */
  last_refreshed_at: string | null;
  /** Newest record date seen in the source (YYYY-MM-DD), null when unknown. */
  latest_record_date: string | null;
  /** `sources.cadence`: daily, weekly, monthly, quarterly, yearly, per_sale, static (others read as monthly). */
  cadence: string;
  /** When its refreshes started failing (ISO timestamp), null or absent while they succeed. */
  failing_since?: string | null;
}

export type SourceFreshnessMap = Partial<Record<SourceKey, SourceFreshness>>;

/** Aggregates the histogram's buckets cannot express. */
export interface SpecialAggregates {
  /**
   * Heat and hot water complaints (event_type hpd_complaint or complaint_311, category heat_hot_water,
   * any status, not scoring_excluded) with occurred_on inside `heatSeasonWindow(as_of)`, both ends included.
   */
  heat_season_complaints: number;
}

/** Optional run-level context measured by the feature pass; every field defaults to neutral. */
export interface ScoringContext {
  /**
   * The building's area (ZIP code) reporting propensity: housing complaints per recorded condition
   * (violations, orders, emergency repairs) over the city's ratio. Below 1 where tenants under-report
   * (low-income areas), so their complaints weigh more. Complaint measures are divided by it, bounded to
   * AREA_PROPENSITY_BOUNDS.
   */
  area_complaint_propensity?: number | null;
  /** Measured peer-group median of complaints per residential unit per year, replacing the prior. */
  peer_complaint_rate?: number | null;
}

export interface BuildingInput {
  building: BuildingFacts;
  /** Date the score describes (YYYY-MM-DD); every age is relative to it. */
  as_of: string;
  histogram: HistogramRow[];
  sources: SourceFreshnessMap;
  aggregates: SpecialAggregates;
  context?: ScoringContext;
}

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');
const count = z.number().int().nonnegative();

export const buildingFactsSchema = z.object({
  bbl: z.string().refine(isValidBbl, 'must be a valid 10-digit BBL'),
  residential_units: count,
  total_units: count.nullable(),
  year_built: z.number().int().nullable(),
  building_class: z.string().nullable(),
  num_buildings: count.nullable(),
  in_hpd_jurisdiction: z.boolean(),
  hpd_legal_units: count.nullable(),
  registration_end_date: isoDate.nullable(),
  management_program: z.string().nullable().optional(),
  owner_name: z.string().nullable().optional(),
});

export const histogramRowSchema = z.object({
  source: z.enum(SOURCE_KEYS),
  event_type: z.enum(EVENT_TYPES),
  category: z.enum(CATEGORIES),
  severity: z.enum(SEVERITIES),
  open: z.boolean(),
  scoring_excluded: z.boolean(),
  age_bucket: z.enum(AGE_BUCKET_KEYS as [AgeBucket, ...AgeBucket[]]),
  count: z.number().int().positive(),
  amount: z.number().finite().nonnegative(),
  newest_event_ids: z.array(z.string()).max(3),
  newest_occurred_on: isoDate.nullable(),
});

export const sourceFreshnessSchema = z.object({
  last_refreshed_at: z.string().regex(/^\d{4}-\d{2}-\d{2}/, 'must start with YYYY-MM-DD').nullable(),
  latest_record_date: isoDate.nullable(),
  cadence: z.string(),
  failing_since: z.string().regex(/^\d{4}-\d{2}-\d{2}/, 'must start with YYYY-MM-DD').nullable().optional(),
});

export const buildingInputSchema = z.object({
  building: buildingFactsSchema,
  as_of: isoDate,
  histogram: z.array(histogramRowSchema),
  sources: z.partialRecord(z.enum(SOURCE_KEYS), sourceFreshnessSchema),
  aggregates: z.object({ heat_season_complaints: count }),
  context: z
    .object({
      area_complaint_propensity: z.number().positive().nullable().optional(),
      peer_complaint_rate: z.number().positive().nullable().optional(),
    })
    .optional(),
});

// The schema and the documented interfaces must describe the same shape.
type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesInterface: Equal<z.infer<typeof buildingInputSchema>, BuildingInput> = true;
void schemaMatchesInterface;

export function parseBuildingInput(value: unknown): BuildingInput {
  return buildingInputSchema.parse(value);
}
