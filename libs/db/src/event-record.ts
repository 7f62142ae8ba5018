import { inflateRawSync } from 'node:zlib';
import { DESCRIPTION_DICTIONARIES } from './event-description-dictionaries';
import { RECORD_DICTIONARIES } from './event-record-dictionaries';
import { ZSTD_DICTIONARIES } from './event-record-zstd-dictionaries';
import { RecordDeflate } from './record-deflate';
import { RecordZstd } from './record-zstd';

/**
 * The compact form of an event's attributes (docs/adr/0011-event-storage-and-load-path.md).
 *
 * `events.attributes` (jsonb) keeps only what SQL reads or writes: the money amounts the scorer
 * sums, the list attributes the merge concatenates and the vanished date (the 311 duplicate mark,
 * written by the merge, has a column of its own: `events.duplicate_of_hpd_complaint`).
 * Every other attribute goes into `events.record` (bytea): the JSON of those attributes, keys in
 * jsonb order, compressed with a dictionary of the event's source. Byte 0 names the dictionary, and
 * with it the compressor: 0, raw deflate without a dictionary; 1 and 2, raw deflate with the source's
 * preset dictionaries; 3, zstd with the source's zstd dictionary (record-zstd.ts), which records are
 * written with now. Stored rows of an older dictionary stay readable. The API renders the union of
 * both exactly as `attributes::text` rendered the whole jsonb before.
 */
export const SQL_ATTRIBUTES: ReadonlySet<string> = new Set([
  'amount', 'balance_due', 'penalty', 'problems', 'unique_keys_311', 'duplicate_of_hpd_complaint', 'vanished_on',
]);

/** The key of an event's description in its record: no attribute is named by the empty string. */
const DESCRIPTION = '';

/** Dictionaries by source, then id: read for every record the API renders, so no key is built per call. */
const dictionaryBuffers = new Map<string, Buffer[]>();

/** The text of a record dictionary: 1, typical records; 2, the same followed by typical descriptions. */
function dictionaryText(source: string, id: number): string | undefined {
  const records = RECORD_DICTIONARIES[source];
  if (id === 1) return records;
  const descriptions = DESCRIPTION_DICTIONARIES[source];
  return id === 2 && records !== undefined && descriptions !== undefined ? records + descriptions : undefined;
}

function dictionary(source: string, id: number): Buffer | null {
  if (id === 0) return null;
  let bySource = dictionaryBuffers.get(source);
  if (!bySource) dictionaryBuffers.set(source, (bySource = []));
  let buffer = bySource[id];
  if (!buffer) {
    const text = dictionaryText(source, id);
    if (text === undefined) throw new Error(`no record dictionary ${id} for ${source}`);
    buffer = bySource[id] = Buffer.from(text, 'utf8');
  }
  return buffer;
}

/** The zstd dictionary of records (byte 0 = 3): event-record-zstd-dictionaries.ts. */
const ZSTD = 3;

/** The newest deflate dictionary of a source: what records were written with before the zstd dictionaries. */
export function newestDeflateDictionary(source: string): number {
  if (RECORD_DICTIONARIES[source] === undefined) return 0;
  return DESCRIPTION_DICTIONARIES[source] === undefined ? 1 : 2;
}

/** Records are written with the newest dictionary of their source. */
export function newestDictionary(source: string): number {
  return ZSTD_DICTIONARIES[source] === undefined ? newestDeflateDictionary(source) : ZSTD;
}

/** One zstd compressor per source, its dictionary digested once. */
const zstdCodecs = new Map<string, RecordZstd>();

function zstdCodecOf(source: string): RecordZstd {
  let codec = zstdCodecs.get(source);
  if (!codec) {
    const dictionary = ZSTD_DICTIONARIES[source];
    if (dictionary === undefined) throw new Error(`no record dictionary ${ZSTD} for ${source}`);
    zstdCodecs.set(source, (codec = new RecordZstd(Buffer.from(dictionary, 'base64'))));
  }
  return codec;
}

function isAscii(key: string): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) > 0x7f) return false;
  return true;
}
const keyBytes = new Map<string, number>();

/** Byte length of a key, or -1 when it is not ASCII (compared as bytes then); keys repeat, so it is cached. */
function asciiLength(key: string): number {
  let n = keyBytes.get(key);
  if (n === undefined) {
    n = isAscii(key) ? key.length : -1;
    if (keyBytes.size < 10_000) keyBytes.set(key, n);
  }
  return n;
}

/** jsonb orders object keys by their length in bytes, then bytewise. */
function compareKeys(a: string, b: string): number {
  const la = asciiLength(a);
  const lb = asciiLength(b);
  if (la >= 0 && lb >= 0) {
    if (la !== lb) return la - lb;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length !== bb.length ? ba.length - bb.length : Buffer.compare(ba, bb);
}

/** A number jsonb would print differently from JavaScript (exponent notation) stays in jsonb. */
function renderedAlike(value: unknown): boolean {
  // JavaScript prints a number in exponent notation below 1e-6 and from 1e21 on
  if (typeof value === 'number') return value === 0 || (Math.abs(value) >= 1e-6 && Math.abs(value) < 1e21);
  if (Array.isArray(value)) return value.every(renderedAlike);
  if (value !== null && typeof value === 'object') return Object.values(value).every(renderedAlike);
  return true;
}

/** An object's keys in jsonb order, each with its printed prefix (`"key": `). */
interface KeyOrder {
  keys: string[];
  prefixes: string[];
}

function sortedKeys(keys: string[]): KeyOrder {
  const sorted = [...keys].sort(compareKeys);
  return { keys: sorted, prefixes: sorted.map((k) => `${JSON.stringify(k)}: `) };
}

/** A step of the key sequences seen: the order of the set that ends here, and the sequences that go on. */
interface KeyNode {
  order: KeyOrder | null;
  next: Map<string, KeyNode>;
}

/**
 * Records of a source have a handful of key sets: their order is worked out once per set, found by
 * walking the object's keys (joining them into one string to look it up cost more, per record).
 */
const keyOrders: KeyNode = { order: null, next: new Map() };
let keyNodes = 0;

function keyOrderOf(keys: string[]): KeyOrder {
  let node = keyOrders;
  for (const key of keys) {
    let child = node.next.get(key);
    if (!child) {
      if (keyNodes >= 10_000) return sortedKeys(keys);
      node.next.set(key, (child = { order: null, next: new Map() }));
      keyNodes++;
    }
    node = child;
  }
  return (node.order ??= sortedKeys(keys));
}

/** A value as Postgres prints a jsonb value (`{"a": 1, "b": [1, 2]}`). */
export function jsonbText(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => jsonbText(v === undefined ? null : v)).join(', ')}]`;
  const { keys, prefixes } = keyOrderOf(Object.keys(value));
  const object = value as Record<string, unknown>;
  let text = '{';
  for (let i = 0; i < keys.length; i++) {
    const v = object[keys[i]];
    if (v === undefined) continue;
    text += `${text.length > 1 ? ', ' : ''}${prefixes[i]}${jsonbText(v)}`;
  }
  return `${text}}`;
}

export interface SplitAttributes {
  /** What stays in `events.attributes`. */
  sql: Record<string, unknown>;
  /** `events.record`, null when every attribute stays in jsonb. */
  record: Buffer | null;
}

/**
 * How the attributes of one key set are split: the keys kept in jsonb, and the record's keys in jsonb
 * order with their printed prefixes. Worked out once per key set (`keyOrderOf`), so a record's text is
 * printed straight from the attributes, with no object of the record's own per event.
 */
interface SplitPlan {
  sqlKeys: string[];
  record: KeyOrder;
}

/** Plans by the set of keys kept out of the record, then by key set. */
const splitPlans = new Map<ReadonlySet<string>, WeakMap<KeyOrder, SplitPlan>>();

function splitPlanOf(keys: string[], kept: ReadonlySet<string>): SplitPlan {
  const order = keyOrderOf(keys);
  let plans = splitPlans.get(kept);
  if (!plans) splitPlans.set(kept, (plans = new WeakMap()));
  let plan = plans.get(order);
  if (!plan) {
    const inRecord = order.keys.map((key, i) => [key, order.prefixes[i]] as const).filter(([key]) => !kept.has(key));
    plan = {
      sqlKeys: keys.filter((key) => kept.has(key)),
      record: { keys: inRecord.map(([key]) => key), prefixes: inRecord.map(([, prefix]) => prefix) },
    };
    plans.set(order, plan);
  }
  return plan;
}

/**
 * The jsonb text of the members of `object` the plan puts in the record (and of the description, first:
 * its key, the empty string, sorts first), or null when there are none. A member jsonb would print
 * differently (renderedAlike) goes to `outside` instead.
 */
function recordText(object: Record<string, unknown>, plan: SplitPlan, description: string | null, outside: Record<string, unknown>): string | null {
  let text = description === null ? '' : `${DESCRIPTION_PREFIX}${JSON.stringify(description)}`;
  const { keys, prefixes } = plan.record;
  for (let i = 0; i < keys.length; i++) {
    const value = object[keys[i]];
    if (value === undefined) continue;
    if (!renderedAlike(value)) outside[keys[i]] = value;
    else text += `${text.length > 0 ? ', ' : ''}${prefixes[i]}${typeof value === 'string' ? JSON.stringify(value) : jsonbText(value)}`;
  }
  return text.length > 0 ? `{${text}}` : null;
}

const DESCRIPTION_PREFIX = `${JSON.stringify(DESCRIPTION)}: `;

/** Splits an event's attributes into its jsonb part and its compact record, which also holds the description. */
export function splitAttributes(
  source: string,
  attributes: Record<string, unknown>,
  description: string | null = null,
  dictionaryId = newestDictionary(source),
  problemsDictionaryId?: number,
): SplitAttributes {
  const plan = splitPlanOf(Object.keys(attributes), SQL_ATTRIBUTES);
  const sql: Record<string, unknown> = {};
  for (const key of plan.sqlKeys) {
    const value = attributes[key];
    if (value === undefined) continue;
    sql[key] = key === 'problems' && Array.isArray(value) ? value.map((problem) => compactProblem(problem, problemsDictionaryId)) : value;
  }
  const text = recordText(attributes, plan, description, sql);
  return { sql, record: text === null ? null : compressRecord(source, text, dictionaryId) };
}

/** A small window and little memory: records are short, and setting up a stream is most of the cost. */
const DEFLATE = { level: 9, windowBits: 12, memLevel: 4 } as const;

/** One compressor per source and dictionary (record-deflate.ts). */
const deflaters = new Map<string, RecordDeflate[]>();

function deflaterOf(source: string, id: number): RecordDeflate {
  let bySource = deflaters.get(source);
  if (!bySource) deflaters.set(source, (bySource = []));
  let deflater = bySource[id];
  if (!deflater) {
    const dict = dictionary(source, id);
    deflater = bySource[id] = new RecordDeflate(dict ? { ...DEFLATE, dictionary: dict } : DEFLATE);
  }
  return deflater;
}

/** A record with the newest dictionary of its source, or the one given (a migration going back writes the older one). */
export function encodeRecord(source: string, values: Record<string, unknown>, id = newestDictionary(source)): Buffer {
  return compressRecord(source, jsonbText(values), id);
}

function compressRecord(source: string, text: string, id: number): Buffer {
  if (id === ZSTD) return zstdCodecOf(source).compress(id, text);
  return deflaterOf(source, id).compress(id, text);
}

function decodeRecord(source: string, record: Buffer): Record<string, unknown> {
  if (record[0] === ZSTD) return JSON.parse(zstdCodecOf(source).decompress(record)) as Record<string, unknown>;
  const dict = dictionary(source, record[0]);
  const json = inflateRawSync(record.subarray(1), dict ? { dictionary: dict } : {});
  return JSON.parse(json.toString('utf8')) as Record<string, unknown>;
}

export interface RecordContents {
  /** The attributes kept in the record. */
  attributes: Record<string, unknown>;
  /** The event's description, when the record holds it (the `description` column is null then). */
  description: string | null;
}

export function readRecord(source: string, record: Buffer): RecordContents {
  const { [DESCRIPTION]: description, ...attributes } = decodeRecord(source, record);
  return { attributes, description: typeof description === 'string' ? description : null };
}

/** The dictionary of compact problems (a name of its own in RECORD_DICTIONARIES, not a source). */
export const PROBLEMS_DICTIONARY = 'hpd_complaint_problems';

/** A compact problem: its whole-number id, a space and the base64 of its record. */
const COMPACT_PROBLEM = /^(-?\d+) ([A-Za-z0-9+/]+={0,2})$/;

/**
 * An HPD complaint's problem in stored form: the string `"<problem_id> <base64 of a record>"`, the
 * record holding the rest of the problem. The merge keys problems by id in SQL (merge-refinements.ts),
 * so the id stays readable; the rest (~280 characters of JSON, ~330 bytes of jsonb) takes ~40, and
 * one jsonb string costs ~16 bytes less than the `[problem_id, "<record>"]` stored before
 * (docs/adr/0011-event-storage-and-load-path.md). A problem without a whole-number id, or with
 * numbers jsonb would print differently, stays as it is (an object: never a string).
 */
export function compactProblem(problem: unknown, dictionaryId = newestDictionary(PROBLEMS_DICTIONARY)): unknown {
  if (problem === null || typeof problem !== 'object' || Array.isArray(problem)) return problem;
  const object = problem as Record<string, unknown>;
  const id = object['problem_id'];
  if (!Number.isSafeInteger(id)) return problem;
  const outside: Record<string, unknown> = {};
  const text = recordText(object, splitPlanOf(Object.keys(object), PROBLEM_ID), null, outside);
  if (text === null || Object.keys(outside).length > 0) return problem;
  return `${id as number} ${compressRecord(PROBLEMS_DICTIONARY, text, dictionaryId).toString('base64')}`;
}

const PROBLEM_ID: ReadonlySet<string> = new Set(['problem_id']);

/** The id and record text of a problem in compact form (a string, or the array stored before), else null. */
function compactParts(stored: unknown): [number, string] | null {
  if (Array.isArray(stored)) return stored as [number, string];
  const match = typeof stored === 'string' ? COMPACT_PROBLEM.exec(stored) : null;
  return match ? [Number(match[1]), match[2]] : null;
}

/** A problem as it was published, from its stored form (compact or not). */
export function expandProblem(stored: unknown): unknown {
  const parts = compactParts(stored);
  if (!parts) return stored;
  const [id, text] = parts;
  return { problem_id: id, ...readRecord(PROBLEMS_DICTIONARY, Buffer.from(text, 'base64')).attributes };
}

/** `'\x…'`: a record as COPY text input for a bytea column. */
export function recordCopyText(record: Buffer | null): string | null {
  return record ? `\\x${record.toString('hex')}` : null;
}

/** Where the value that starts at `i` of a jsonb text ends (the index of the `,` or closing bracket after it). */
function valueEnd(text: string, i: number, n: number): number {
  let depth = 0;
  let inString = false;
  let j = i;
  for (; j < n; j++) {
    const c = text[j];
    if (inString) {
      if (c === '\\') j++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 0) break;
  }
  return j;
}

/** Splits the top level of a jsonb text (`{"a": 1, "b": {...}}`) into keys and their value texts. */
function topLevelMembers(text: string): Array<[string, string]> {
  const members: Array<[string, string]> = [];
  let i = 1;
  const n = text.length - 1;
  while (i < n) {
    // key: a JSON string
    let j = i + 1;
    while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    const key = JSON.parse(text.slice(i, j + 1)) as string;
    i = j + 3; // past `": `
    j = valueEnd(text, i, n);
    members.push([key, text.slice(i, j)]);
    i = j + 2; // past `, `
  }
  return members;
}

/** Splits a jsonb array text (`[1, {...}]`) into its element texts. */
function arrayElements(text: string): string[] {
  const elements: string[] = [];
  const n = text.length - 1;
  for (let i = 1; i < n; ) {
    const j = valueEnd(text, i, n);
    elements.push(text.slice(i, j));
    i = j + 2; // past `, `
  }
  return elements;
}

/** A `problems` text with its compact problems printed whole (the others as Postgres printed them). */
function expandedProblemsText(text: string): string {
  if (!text.startsWith('[')) return text;
  const elements = arrayElements(text).map((element) => {
    if (!element.startsWith('[') && !element.startsWith('"')) return element;
    const parts = compactParts(JSON.parse(element));
    return parts ? jsonbText(expandProblem(parts)) : element;
  });
  return `[${elements.join(', ')}]`;
}

/** The attribute a 311 request marked as a duplicate of an HPD complaint had, now a column of its own. */
export const DUPLICATE_MARK = 'duplicate_of_hpd_complaint';

/** The attributes of its record and the duplicate mark of its column: what a stored event holds outside its jsonb. */
function outsideJsonb(recorded: Record<string, unknown> | null, duplicateOf: string | null): Record<string, unknown> | null {
  return duplicateOf === null ? recorded : { ...recorded, [DUPLICATE_MARK]: duplicateOf };
}

/**
 * The attributes of a stored event as jsonb text, exactly as `attributes::text` printed them when
 * they were kept whole: the jsonb part as Postgres printed it (compact problems printed whole),
 * merged with the attributes of its record (readRecord) and its duplicate mark (`events.duplicate_of_hpd_complaint`).
 */
export function attributesText(jsonb: string, inRecord: Record<string, unknown> | null, duplicateOf: string | null = null): string {
  const recorded = outsideJsonb(inRecord, duplicateOf);
  const problems = jsonb.includes('"problems": [');
  if (!recorded && !problems) return jsonb;
  const members = jsonb === '{}' ? [] : topLevelMembers(jsonb);
  if (problems) for (const member of members) if (member[0] === 'problems') member[1] = expandedProblemsText(member[1]);
  if (recorded) {
    for (const [key, value] of Object.entries(recorded)) members.push([key, jsonbText(value)]);
    members.sort(([a], [b]) => compareKeys(a, b));
  }
  return `{${members.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(', ')}}`;
}

/** The whole attributes of a stored event as an object. */
export function eventAttributes(source: string, jsonb: Record<string, unknown>, record: Buffer | null, duplicateOf: string | null = null): Record<string, unknown> {
  const whole = Array.isArray(jsonb['problems']) ? { ...jsonb, problems: jsonb['problems'].map(expandProblem) } : jsonb;
  return { ...whole, ...outsideJsonb(record ? readRecord(source, record).attributes : null, duplicateOf) };
}
