import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

/** Reads a generated file as arrays of fields (header first); tolerates rows of the wrong length. */
export function readCsv(path: string): string[][] {
  return parse(readFileSync(path, 'utf8'), { relax_column_count: true, relax_quotes: true }) as string[][];
}

/** Reads a generated file as objects keyed by header name (rows of the wrong length are skipped). */
export function readCsvObjects(path: string): Record<string, string>[] {
  const [header, ...rows] = readCsv(path);
  return rows.filter((row) => row.length === header.length).map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])));
}

export function firstLine(path: string): string {
  const text = readFileSync(path, 'utf8');
  return text.slice(0, text.indexOf('\n'));
}
