import { parse as csvParser } from 'csv-parse';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** One record of a CSV file: its fields, its text as read (line break included) and the line it starts on. */
export interface CsvRecord {
  fields: string[];
  raw: string;
  lineNumber: number;
}

/**
 * Records the caller knows already by their text (line-hashes.ts), set once it has read the header: each
 * record of a well-formed file is offered, as `text` from `start` to `end` (its line break included)
 * starting on `line`, before it is split; one it knows (`true`) is not yielded at all.
 */
export interface LineFilter {
  known: ((text: string, start: number, end: number, line: number) => boolean) | null;
}

/** A record the reader could not make sense of: quarantined by the caller with `message`. */
export interface CsvUnreadable {
  unreadable: true;
  raw: string;
  lineNumber: number;
  message: string;
}

/**
 * The strict reader, used for a file once the fast one meets something it does not read with certainty:
 * csv-parse, forgiving quotes inside unquoted fields, skipping (and reporting) records it cannot read.
 */
async function* strictRecords(head: string, rest: AsyncIterable<string>, firstLine: number): AsyncGenerator<CsvRecord | CsvUnreadable> {
  const skipped: CsvUnreadable[] = [];
  const parser = csvParser({
    raw: true,
    info: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (error, raw) => {
      const line = error?.['lines'];
      skipped.push({
        unreadable: true,
        raw: raw ?? '',
        lineNumber: typeof line === 'number' ? line + firstLine - 1 : 0,
        message: error?.message ?? 'unreadable CSV',
      });
      return undefined;
    },
  });
  const feed = (async () => {
    try {
      if (head && !parser.write(head)) await new Promise((resolve) => parser.once('drain', resolve));
      for await (const text of rest) {
        if (!parser.write(text)) await new Promise((resolve) => parser.once('drain', resolve));
      }
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  for await (const chunk of parser as AsyncIterable<{ record: string[]; raw: string; info: { lines: number } }>) {
    while (skipped.length > 0) yield skipped.shift() as CsvUnreadable;
    yield { fields: chunk.record, raw: chunk.raw, lineNumber: chunk.info.lines - newlinesInside(chunk.raw) + firstLine - 1 };
  }
  await feed;
  while (skipped.length > 0) yield skipped.shift() as CsvUnreadable;
}

/** Lines of `text` from `start` to `end` (a record that ends with its line break). */
function linesIn(text: string, start: number, end: number): number {
  let lines = 0;
  for (let i = text.indexOf('\n', start); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) lines += 1;
  return lines;
}

/** Line breaks inside a record's raw text (quoted multi-line values), not counting the one ending it. */
function newlinesInside(raw: string): number {
  const end = raw.endsWith('\n') ? raw.length - 1 : raw.length;
  let lines = 0;
  for (let at = raw.indexOf('\n'); at !== -1 && at < end; at = raw.indexOf('\n', at + 1)) lines += 1;
  return lines;
}

async function* decoded(input: Readable): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (text) yield text;
  }
  const tail = decoder.end();
  if (tail) yield tail;
}

const ODD = Symbol('odd');
const MORE = Symbol('more');
type Scan = { fields: string[]; end: number } | typeof ODD | typeof MORE;

/**
 * Where a record with quoted fields that starts at `start` ends (after its line break): at the first line
 * break outside quotes; -1 when the text read so far has none. Only a candidate: the caller skips the
 * record only when it knows this text, so a record that is not well quoted is read by `scanRecord`.
 */
function quotedRecordEnd(text: string, start: number): number {
  let inQuotes = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) inQuotes = !inQuotes;
    else if (c === 10 && !inQuotes) return i + 1;
  }
  return -1;
}

/**
 * Reads one record starting at `start` of `text`, with quoted fields (RFC 4180). `MORE` when the
 * record may go on past the text read so far; `ODD` for anything but clean quoting (a closing quote
 * followed by more text, a bare carriage return), which the strict reader then decides.
 */
function scanRecord(text: string, start: number, final: boolean): Scan {
  const fields: string[] = [];
  let i = start;
  for (;;) {
    if (text.charCodeAt(i) === 34 /* " */) {
      let value = '';
      let from = i + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote === -1) return final ? ODD : MORE;
        if (quote + 1 >= text.length) {
          if (!final) return MORE;
          fields.push(value + text.slice(from, quote));
          return { fields, end: text.length };
        }
        const next = text.charCodeAt(quote + 1);
        if (next === 34) {
          value += text.slice(from, quote + 1);
          from = quote + 2;
          continue;
        }
        fields.push(value + text.slice(from, quote));
        if (next === 44 /* , */) {
          i = quote + 2;
          break;
        }
        if (next === 10) return { fields, end: quote + 2 };
        if (next === 13 && text.charCodeAt(quote + 2) === 10) return { fields, end: quote + 3 };
        if (next === 13 && quote + 2 >= text.length && !final) return MORE;
        return ODD;
      }
      continue;
    }
    // an unquoted field: quotes inside are text (as the strict reader reads them)
    let end = i;
    for (; end < text.length; end++) {
      const c = text.charCodeAt(end);
      if (c === 44 || c === 10 || c === 13) break;
    }
    if (end >= text.length) {
      if (!final) return MORE;
      fields.push(text.slice(i, end));
      return { fields, end };
    }
    const c = text.charCodeAt(end);
    fields.push(text.slice(i, end));
    if (c === 44) {
      i = end + 1;
      continue;
    }
    if (c === 10) return { fields, end: end + 1 };
    if (text.charCodeAt(end + 1) === 10) return { fields, end: end + 2 };
    if (end + 1 >= text.length && !final) return MORE;
    return ODD;
  }
}

/**
 * The records of a CSV stream. Well-formed files (the publishers' exports) are split by a small
 * tokenizer; from the first record it cannot read with certainty, the rest of the file goes through
 * csv-parse, which forgives what can be forgiven and reports what cannot (`CsvUnreadable`).
 * Empty lines are skipped; a byte order mark is dropped; line numbers count every line of the file.
 */
export async function* csvRecords(input: Readable, filter?: LineFilter): AsyncGenerator<CsvRecord | CsvUnreadable> {
  const chunks = decoded(input);
  let text = '';
  let at = 0;
  let line = 1;
  let final = false;
  let first = true;
  // the next quote at or after `at` (-1: none in the text; -2: not looked for since the text changed),
  // so that a file with few quotes is not searched to its next quote from every line
  let quoteAt = -2;
  for (;;) {
    if (!final && (at >= text.length || text.indexOf('\n', at) === -1 || text.length - at < 1 << 16)) {
      const next = await chunks.next();
      if (next.done) final = true;
      else {
        text = text.slice(at) + next.value;
        at = 0;
        quoteAt = -2;
        if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        first = false;
        if (text.length - at < 1 << 16) continue;
      }
    }
    if (at >= text.length) return;
    const c = text.charCodeAt(at);
    if (c === 10 || (c === 13 && text.charCodeAt(at + 1) === 10)) {
      at += c === 10 ? 1 : 2;
      line += 1;
      continue;
    }
    const newline = text.indexOf('\n', at);
    if (newline !== -1) {
      if (quoteAt !== -1 && quoteAt < at) quoteAt = text.indexOf('"', at);
      if (quoteAt === -1 || quoteAt > newline) {
        // the common case: a line without quotes
        if (filter?.known?.(text, at, newline + 1, line)) {
          line += 1;
          at = newline + 1;
          continue;
        }
        const end = text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
        const body = text.slice(at, end);
        if (body.indexOf('\r') === -1) {
          yield { fields: body.split(','), raw: text.slice(at, newline + 1), lineNumber: line };
          line += 1;
          at = newline + 1;
          continue;
        }
      }
    }
    if (filter?.known) {
      const end = quotedRecordEnd(text, at);
      if (end !== -1 && filter.known(text, at, end, line)) {
        line += linesIn(text, at, end);
        at = end;
        continue;
      }
    }
    const scan = scanRecord(text, at, final);
    if (scan === MORE) {
      if (final) return;
      const next = await chunks.next();
      if (next.done) final = true;
      else {
        text = text.slice(at) + next.value;
        at = 0;
        quoteAt = -2;
      }
      continue;
    }
    if (scan === ODD) {
      yield* strictRecords(text.slice(at), chunks, line);
      return;
    }
    const raw = text.slice(at, scan.end);
    yield { fields: scan.fields, raw, lineNumber: line };
    line += 1 + newlinesInside(raw);
    at = scan.end;
  }
}
