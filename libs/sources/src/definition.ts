import { COMPONENT_KEYS, EVENT_TYPES, EventStatus, EventType, NormalizedEvent } from '@bhis/domain';
import { z } from 'zod';
import { ClassificationKeys } from './classification';
import { FACTS_KINDS, SourceFacts } from './facts';
import { ambiguousColumns, partColumns } from './part-columns';
import { RowFields } from './row-fields';
import { DatasetUrls, socrataUrls } from './urls';

export const CADENCES = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly', 'per_sale', 'rarely', 'static'] as const;
export type Cadence = (typeof CADENCES)[number];

/**
 * How a refresh reads the data set. `incremental`: rows changed since the last refresh (SODA
 * `:updated_at`), records never vanish. `whole_replace`: the city republishes the whole set, so every
 * refresh reads the whole export and records missing from it are closed as vanished (merge-vanished.ts).
 */
export const REFRESH_MODES = ['incremental', 'whole_replace'] as const;
export type RefreshMode = (typeof REFRESH_MODES)[number];

/** Why a record was set aside (the loader writes these to rejected_rows). */
export const QUARANTINE_REASONS = [
  'wrong_column_count',
  'unparseable_row',
  'unstorable_text',
  'missing_record_key',
  'missing_date',
  'invalid_date',
  'no_bbl',
  'mapper_error',
] as const;
export type QuarantineReason = (typeof QUARANTINE_REASONS)[number];

/**
 * How a record finds its BBL, tried in order until one yields a BBL:
 * a 10-digit BBL column; borough + block + lot columns; a BIN looked up in the BIN->BBL map; an HPD
 * registration id looked up in the registration->BBL map. An empty list means the source has no BBL.
 */
export type BblLocator =
  | { kind: 'bbl_column'; column: string }
  | { kind: 'borough_block_lot'; borough: string; block: string; lot: string }
  | { kind: 'bin'; column: string }
  | { kind: 'registration'; column: string };

/** Lookups the loader backs with the maps it holds (bin_bbl, registrations). */
export interface BblResolver {
  resolveBin(bin: number): string | null;
  resolveRegistration(registrationId: number): string | null;
}

export type RecordOutcome =
  | { kind: 'ok'; events: NormalizedEvent[]; facts: SourceFacts[] }
  | { kind: 'quarantined'; reason: QuarantineReason; detail?: string }
  | { kind: 'not_relevant'; reason: string };

/** What a mapper fills in; source, bbl and the record key are added by the context. */
export interface EventDraft {
  event_type: EventType;
  /** Source values that decide category and severity, in priority order (see classification.ts). */
  classify_by: ClassificationKeys;
  status: EventStatus | null;
  occurred_on: string | null;
  closed_on?: string | null;
  description: string | null;
  attributes: Record<string, unknown>;
  scoring_excluded?: boolean;
}

export interface MapContext {
  readonly f: RowFields;
  readonly source: string;
  readonly part: string;
  readonly recordKey: string;
  /** Null only for sources without a BBL (empty locator list). */
  readonly bbl: string | null;
  event(draft: EventDraft): NormalizedEvent;
}

export type RowMapper = (context: MapContext) => RecordOutcome;
/** The source's own record id (-> source_record_id); null when the record has none. */
export type RecordKeyReader = (fields: RowFields) => string | null;
/** A reason when the record is out of scope (not an error: counted as not_relevant), else null. */
export type RelevanceCheck = (fields: RowFields) => string | null;

const fn = <T>(what: string) => z.custom<T>((value) => typeof value === 'function', { message: `${what} must be a function` });

const columnName = z.string().min(1);
const DATASET_ID = /^[a-z0-9]{4}-[a-z0-9]{4}$/;

const bblLocatorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('bbl_column'), column: columnName }),
  z.object({ kind: z.literal('borough_block_lot'), borough: columnName, block: columnName, lot: columnName }),
  z.object({ kind: z.literal('bin'), column: columnName }),
  z.object({ kind: z.literal('registration'), column: columnName }),
]);

const partSchema = z
  .object({
    /** Name of the part within the source (`main`, `omo`, `hwo`, `marshal_compiled`...). */
    part: z.string().regex(/^[a-z0-9_]+$/),
    /** Socrata 4x4 id, or null for files published elsewhere (FOIL releases, compiled files). */
    datasetId: z.string().regex(DATASET_ID).nullable(),
    /** File names `ingest --dir` recognises as this part (compared case-insensitively). */
    fileNames: z.array(z.string().min(1)).min(1),
    /** The CSV header exactly as published, in order (padding spaces included). */
    header: z.array(z.string()).min(1),
    /**
     * Older headers still in circulation, as complete lists. Names are matched normalised (headerKey);
     * a name also in `header` reads as that column, `aliases` renames the others.
     */
    headerVariants: z.array(z.array(z.string()).min(1)).default([]),
    /** Display column -> SODA field name, so one mapper reads CSV and JSON rows. */
    sodaFields: z.record(z.string(), z.string().regex(/^[a-z0-9_:@]+$/)).default({}),
    /** Published names (any declared header, matched normalised) renamed to the column the mapper reads. */
    aliases: z.record(z.string(), z.string()).default({}),
    dayFirstColumns: z.array(columnName).default([]),
    bbl: z.array(bblLocatorSchema),
    recordKey: fn<RecordKeyReader>('recordKey'),
    isRelevant: fn<RelevanceCheck>('isRelevant').optional(),
    map: fn<RowMapper>('map'),
  })
  .superRefine((part, issue) => {
    [part.header, ...part.headerVariants].forEach((header, index) => {
      const ambiguous = ambiguousColumns(part, header);
      const which = index === 0 ? 'header' : `header variant ${index}`;
      if (ambiguous.length > 0) issue.addIssue({ code: 'custom', message: `${part.part}: ${which} has columns that cannot be told apart: ${ambiguous.join('; ')}` });
    });
    const canonical = new Set(partColumns(part));
    const columns = [
      ...Object.keys(part.sodaFields),
      ...part.dayFirstColumns,
      ...part.bbl.flatMap((locator) => (locator.kind === 'borough_block_lot' ? [locator.borough, locator.block, locator.lot] : [locator.column])),
    ];
    for (const column of columns) {
      if (!canonical.has(column)) issue.addIssue({ code: 'custom', message: `${part.part}: column "${column}" is not in the header` });
    }
  });

const sourceSchema = z
  .object({
    key: z.string().regex(/^[a-z0-9_]+$/),
    name: z.string().min(1),
    agency: z.string().min(1),
    description: z.string().min(1),
    cadence: z.enum(CADENCES),
    refresh: z.enum(REFRESH_MODES).default('incremental'),
    components: z.array(z.enum(COMPONENT_KEYS)),
    produces: z.object({ events: z.array(z.enum(EVENT_TYPES)), facts: z.array(z.enum(FACTS_KINDS)) }),
    /** A full download with fewer rows than this is suspicious (truncated export). */
    minimumRows: z.number().int().nonnegative().default(0),
    parts: z.array(partSchema).min(1),
  })
  .superRefine((source, issue) => {
    const parts = source.parts.map((part) => part.part);
    if (new Set(parts).size !== parts.length) issue.addIssue({ code: 'custom', message: 'duplicate part names' });
    if (source.produces.events.length + source.produces.facts.length === 0) {
      issue.addIssue({ code: 'custom', message: 'a source must produce events or facts' });
    }
  });

export type SourceDefinitionInput = z.input<typeof sourceSchema>;
export type SourcePartInput = SourceDefinitionInput['parts'][number];
type ParsedSource = z.output<typeof sourceSchema>;
type ParsedPart = ParsedSource['parts'][number];

export interface SourcePart extends ParsedPart {
  /** Download URLs built from the dataset id (null for files not on Open Data). */
  readonly urls: DatasetUrls | null;
}

export interface SourceDefinition extends Omit<ParsedSource, 'parts'> {
  readonly parts: readonly SourcePart[];
}

/** Validates a source definition at load; a bad definition fails with every problem listed. */
export function defineSource<const K extends string>(input: SourceDefinitionInput & { key: K }): SourceDefinition & { readonly key: K } {
  const result = sourceSchema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(source)'}: ${issue.message}`);
    throw new Error(`invalid source definition "${String(input.key)}": ${problems.join('; ')}`);
  }
  const source = result.data;
  return {
    ...source,
    key: input.key,
    parts: source.parts.map((part) => ({ ...part, urls: part.datasetId ? socrataUrls(part.datasetId) : null })),
  };
}

/** The primary dataset id of a source (its first part that is on Open Data). */
export function primaryDatasetId(source: SourceDefinition): string | null {
  return source.parts.find((part) => part.datasetId)?.datasetId ?? null;
}
