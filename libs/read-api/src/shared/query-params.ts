import { ApiError } from '@bhis/envelope';
import { quoteInput } from '@bhis/domain';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

function invalid(message: string): ApiError {
  return new ApiError('invalid_request', message);
}

/** Refuses query parameters other than the allowed ones (for routes read without a query DTO). */
export function rejectUnknownParams(query: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(query).filter((name) => !allowed.includes(name));
  if (unknown.length === 0) return;
  const accepted = allowed.length > 0 ? `accepted: ${allowed.join(', ')}` : 'this endpoint takes no query parameters';
  throw invalid(`Unknown query parameter${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${quoteInput(n)}"`).join(', ')} (${accepted}).`);
}

/** A query parameter given once (repeated parameters arrive as arrays and are refused). */
export function singleParam(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`"${name}" must be given once, as a single value.`);
  return value;
}

export function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PAGE_SIZE;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PAGE_SIZE) {
    throw invalid(`"limit" must be a whole number from 1 to ${MAX_PAGE_SIZE} (got "${quoteInput(raw)}").`);
  }
  return Number(raw);
}

export function parseInteger(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw invalid(`"${name}" must be a whole number from ${min} to ${max} (got "${quoteInput(raw)}").`);
  }
  return Number(raw);
}

/** A calendar date `YYYY-MM-DD` (a real date: 2024-02-30 is refused). */
export function parseIsoDate(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!match || !date || date.toISOString().slice(0, 10) !== raw || Number(match[1]) < 1800) {
    throw invalid(`"${name}" must be an ISO date YYYY-MM-DD from 1800 on (got "${quoteInput(raw)}").`);
  }
  return raw;
}

/**
 * A comma-separated list of values from a vocabulary; every unknown value is named in the error.
 * Empty items and duplicates are dropped; the result is sorted (so equal filters fingerprint equally).
 */
export function parseVocabularyList(name: string, raw: string | undefined, vocabulary: readonly string[], normalize: (v: string) => string = (v) => v): string[] | undefined {
  if (raw === undefined) return undefined;
  const values = [...new Set(raw.split(',').map((v) => normalize(v.trim())).filter((v) => v !== ''))].sort();
  if (values.length === 0) throw invalid(`"${name}" must list at least one value (one of: ${vocabulary.join(', ')}).`);
  const unknown = values.filter((v) => !vocabulary.includes(v));
  if (unknown.length > 0) {
    throw invalid(
      `"${name}" has unknown value${unknown.length > 1 ? 's' : ''} ${unknown.slice(0, 5).map((v) => `"${quoteInput(v)}"`).join(', ')} (accepted: ${vocabulary.join(', ')}).`,
    );
  }
  return values;
}

/** Control characters (NUL included, which Postgres text cannot hold) are refused in every parameter. */
export function rejectControlCharacters(query: object): void {
  for (const [name, value] of Object.entries(query)) {
    if (typeof value === 'string' && hasControlCharacter(value)) {
      throw invalid(`"${quoteInput(name)}" must not contain control characters.`);
    }
  }
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
