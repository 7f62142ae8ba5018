import { BoroughCode } from '@bhis/domain';
import {
  Cast,
  castBbl,
  castBin,
  castBlock,
  castBoolean,
  castBorough,
  castCoordinates,
  castDate,
  castDecimal,
  castInt,
  castLot,
  castText,
  Coordinates,
  DateCastOptions,
} from './casts';

/** A record's values by column name (a Map does). */
export interface FieldValues {
  get(column: string): string | undefined;
  has(column: string): boolean;
}

/** Cast failures of a whole run, per column: `{ "InspectionDate": 3 }`. */
export type CastFailureCounts = Record<string, number>;

export interface RowFieldsOptions {
  /** Columns holding day-first dates (`15/04/2024`). */
  dayFirstColumns?: ReadonlySet<string>;
  dateBounds?: Pick<DateCastOptions, 'minYear' | 'maxYear'>;
  /** Where words outside a column's vocabulary are counted, as `column: WORD` (see `word`). */
  unmappedWords?: Record<string, number>;
}

const DATE_OPTIONS = new WeakMap<RowFieldsOptions, [DateCastOptions, DateCastOptions]>();

/** The date cast options of a file, made once per file rather than once per value. */
function dateOptions(options: RowFieldsOptions, dayFirst: boolean): DateCastOptions {
  let pair = DATE_OPTIONS.get(options);
  if (!pair) {
    pair = [{ ...options.dateBounds, dayFirst: false }, { ...options.dateBounds, dayFirst: true }];
    DATE_OPTIONS.set(options, pair);
  }
  return pair[dayFirst ? 1 : 0];
}

/**
 * Typed, counted access to one record's columns (keyed by the trimmed display column name).
 * Every getter returns null for an empty value; a value that cannot be cast also returns null but
 * is counted in `failures` for its column and remembered for `failed(column)`.
 */
export class RowFields {
  private failedColumns: Set<string> | null = null;

  constructor(
    private readonly values: FieldValues,
    private readonly failures: CastFailureCounts,
    private readonly options: RowFieldsOptions = {},
  ) {}

  /** The value as published, trimmed ('' when absent). Throws for a column the source does not have. */
  raw(column: string): string {
    const value = this.values.get(column);
    if (value === undefined) throw new Error(`unknown column "${column}"`);
    return value.trim();
  }

  has(column: string): boolean {
    return this.values.has(column);
  }

  /** True when a getter already failed to cast this column in this record. */
  failed(column: string): boolean {
    return this.failedColumns?.has(column) ?? false;
  }

  text(column: string): string | null {
    return this.take(column, castText(this.raw(column)));
  }

  upper(column: string): string | null {
    return this.text(column)?.toUpperCase() ?? null;
  }

  int(column: string): number | null {
    return this.take(column, castInt(this.raw(column)));
  }

  decimal(column: string): number | null {
    return this.take(column, castDecimal(this.raw(column)));
  }

  bool(column: string): boolean | null {
    return this.take(column, castBoolean(this.raw(column)));
  }

  date(column: string): string | null {
    return this.take(column, castDate(this.raw(column), dateOptions(this.options, this.options.dayFirstColumns?.has(column) ?? false)));
  }

  borough(column: string): BoroughCode | null {
    return this.take(column, castBorough(this.raw(column)));
  }

  block(column: string): number | null {
    return this.take(column, castBlock(this.raw(column)));
  }

  lot(column: string): number | null {
    return this.take(column, castLot(this.raw(column)));
  }

  bin(column: string): number | null {
    return this.take(column, castBin(this.raw(column)));
  }

  bbl(column: string): string | null {
    return this.take(column, castBbl(this.raw(column)));
  }

  /**
   * A word of a closed vocabulary (status words), compared upper-cased. A word the vocabulary does
   * not list returns null and is counted as `column: WORD`, so a new value shows in the run summary.
   */
  word<T>(column: string, vocabulary: Readonly<Record<string, T>>): T | null {
    const word = this.upper(column);
    if (word === null) return null;
    if (Object.prototype.hasOwnProperty.call(vocabulary, word)) return vocabulary[word];
    const counts = this.options.unmappedWords;
    if (counts) counts[`${column}: ${word}`] = (counts[`${column}: ${word}`] ?? 0) + 1;
    return null;
  }

  /** Counted under `latitude/longitude column names` joined by `+`. */
  coordinates(latitudeColumn: string, longitudeColumn: string): Coordinates | null {
    return this.take(`${latitudeColumn}+${longitudeColumn}`, castCoordinates(this.raw(latitudeColumn), this.raw(longitudeColumn)));
  }

  private take<T>(column: string, cast: Cast<T>): T | null {
    if (cast.ok) return cast.value;
    this.failedColumns ??= new Set();
    if (!this.failedColumns.has(column)) {
      this.failedColumns.add(column);
      this.failures[column] = (this.failures[column] ?? 0) + 1;
    }
    return null;
  }
}
