import { BoroughCode, isBoroughCode } from './boroughs';

/** A validated Borough-Block-Lot: 10 digits, borough 1-5, block 1-99999, lot 0-9999. */
export interface Bbl {
  readonly bbl: string;
  readonly borough: BoroughCode;
  readonly block: number;
  readonly lot: number;
}

export type BblParseResult = { ok: true; value: Bbl } | { ok: false; reason: string };

const TEN_DIGITS = /^\d{10}$/;

/** Strict parse of a BBL as clients send it: exactly 10 digits (surrounding spaces are not accepted). */
export function parseBbl(input: unknown): BblParseResult {
  if (typeof input !== 'string') return { ok: false, reason: 'a BBL must be a string of 10 digits' };
  if (!TEN_DIGITS.test(input)) return { ok: false, reason: 'a BBL must be exactly 10 digits' };
  const borough = Number(input[0]);
  const block = Number(input.slice(1, 6));
  const lot = Number(input.slice(6));
  if (!isBoroughCode(borough)) return { ok: false, reason: 'the borough digit must be 1-5' };
  if (block === 0) return { ok: false, reason: 'the block must not be 0' };
  return { ok: true, value: { bbl: input, borough, block, lot } };
}

export function isValidBbl(input: unknown): input is string {
  return parseBbl(input).ok;
}

/** Builds a BBL from its parts, or null when a part is out of range. */
export function formatBbl(borough: number, block: number, lot: number): string | null {
  if (!isBoroughCode(borough)) return null;
  if (!Number.isInteger(block) || block < 1 || block > 99999) return null;
  if (!Number.isInteger(lot) || lot < 0 || lot > 9999) return null;
  return `${borough}${String(block).padStart(5, '0')}${String(lot).padStart(4, '0')}`;
}

/** Quotes client input in an error message without echoing unbounded text. */
export function quoteInput(input: unknown, max = 40): string {
  const text = typeof input === 'string' ? input : JSON.stringify(input) ?? String(input);
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
