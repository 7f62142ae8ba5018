import { COMPONENT_KEYS } from '@bhis/domain';

/** The counts of spec 2.4, in column order. */
export const COUNT_KEYS = [
  'hpd_violations_total',
  'hpd_violations_open',
  'hpd_class_c_open',
  'dob_violations_total',
  'complaints_311',
  'permits',
  'total_events',
] as const;

export const CSV_COLUMNS: readonly string[] = [
  'bbl',
  'address',
  'borough',
  'zipcode',
  'residential_units',
  'owner_name',
  'total_score',
  'health_score',
  'grade',
  'label',
  ...COMPONENT_KEYS.map((key) => `${key}_score`),
  ...COUNT_KEYS,
  'confidence_score',
  'confidence_tier',
  'flags',
  'scorer_id',
  'as_of',
];

export interface ExportRow {
  bbl: string;
  address: string;
  borough: number;
  zipcode: string | null;
  residential_units: number | null;
  owner_name: string | null;
  total_score: number;
  health_score: number;
  grade: string;
  label: string;
  components: Record<string, { score?: number } | undefined> | null;
  counts: Record<string, number | undefined> | null;
  confidence: { score?: number; tier?: string } | null;
  flags: string[] | null;
  scorer_id: string;
  as_of: string;
}

type Cell = string | number | null;

/** First characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell that a spreadsheet would evaluate is prefixed with a single quote, so it stays text. */
export function neutralizeCell(cell: Cell): Cell {
  return typeof cell === 'string' && FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** One CSV record, in the order of CSV_COLUMNS (empty cells for missing values), formula-safe. */
export function toCsvRecord(row: ExportRow): Cell[] {
  return rawRecord(row).map(neutralizeCell);
}

function rawRecord(row: ExportRow): Cell[] {
  return [
    row.bbl,
    row.address,
    row.borough,
    row.zipcode,
    row.residential_units,
    row.owner_name,
    row.total_score,
    row.health_score,
    row.grade,
    row.label,
    ...COMPONENT_KEYS.map((key) => row.components?.[key]?.score ?? null),
    ...COUNT_KEYS.map((key) => row.counts?.[key] ?? null),
    row.confidence?.score ?? null,
    row.confidence?.tier ?? null,
    (row.flags ?? []).join(';'),
    row.scorer_id,
    row.as_of,
  ];
}
