import { COMPONENT_KEYS } from '@bhis/domain';
import { COUNT_KEYS, type BuildingDocument } from '@bhis/scoring';

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

/** A row of the export query: the building document the scoring worker stored, and its as-of date. */
export interface ExportRow {
  document: BuildingDocument;
  as_of: string;
}

type Cell = string | number | null;

/** First characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell that a spreadsheet would evaluate is prefixed with a single quote, so it stays text. */
export function neutralizeCell(cell: Cell): Cell {
  return typeof cell === 'string' && FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** One CSV record, in the order of CSV_COLUMNS (empty cells for null values), formula-safe. */
export function toCsvRecord(document: BuildingDocument, asOf: string): Cell[] {
  return rawRecord(document, asOf).map(neutralizeCell);
}

function rawRecord(document: BuildingDocument, asOf: string): Cell[] {
  const { scores, counts, confidence } = document;
  return [
    document.bbl,
    document.address,
    document.borough,
    document.zipcode,
    document.residential_units,
    document.owner_name,
    scores.total_score,
    scores.health_score,
    scores.grade,
    scores.label,
    ...COMPONENT_KEYS.map((key) => scores.components[key].score),
    ...COUNT_KEYS.map((key) => counts[key]),
    confidence.score,
    confidence.tier,
    scores.flags.join(';'),
    scores.scorer_id,
    asOf,
  ];
}
