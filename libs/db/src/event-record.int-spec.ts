import { Pool } from 'pg';
import { attributesText, eventAttributes, expandProblem, jsonbText, newestDeflateDictionary, readRecord, splitAttributes } from './event-record';

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const SAMPLES: Array<[string, Record<string, unknown>]> = [
  ['hpd_violations', { violation_id: 58000001, class: 'B', building_id: 1171, rent_impairing: false, nov_issued_date: '2012-10-25', apartment: null, story: '3', amount: 1250.5 }],
  ['hpd_complaints', {
    complaint_id: 306000026, building_id: 1915, status_description: 'Closed. "Quoted", back\\slash, tab\there, line\nbreak',
    problems: [{ problem_id: 2, problem_code: 'MICE', duplicate: false }, { problem_id: 1, space_type: 'ENTIRE APARTMENT' }],
    unique_keys_311: ['306000051'],
  }],
  ['hpd_complaints', {
    complaint_id: 306000027,
    problems: [
      { problem_id: 7, type: 'NON EMERGENCY', status: 'CLOSE', duplicate: false, unit_type: 'APARTMENT', space_type: 'KITCHEN', status_date: '2020-12-30', problem_code: 'AT WALL OR CEILING', major_category: 'WATER LEAK', minor_category: 'SLOW LEAK', unique_key_311: '1000000' },
      { problem_id: 'P-8', type: 'EMERGENCY' },
      { problem_id: 9, note: 'Ünïcode, "quotes" and [brackets], {braces}' },
      { problem_id: 10 },
      { problem_id: 11, big: 1e21 },
    ],
    unique_keys_311: [],
  }],
  ['nyc311', { agency: 'HPD', descriptor: 'PESTS', é: 'accent', ab: 'ab', b: 1, duplicate_of_hpd_complaint: '3413002103', nested: { z: [1, 2.25, -3], a: {} } }],
  ['no_such_source', { note: 'no dictionary: plain deflate', count: 0, big: 1e21, small: 1e-7 }],
  ['hpd_aep', { vanished_on: '2026-11-21', amount: 12 }],
  ['dof_tax_liens', {}],
];

describe('event records', () => {
  const pool = new Pool({ connectionString: ADMIN_URL, max: 1 });
  afterAll(() => pool.end());

  const postgresText = async (value: unknown): Promise<string> =>
    (await pool.query<{ t: string }>('SELECT $1::jsonb::text AS t', [JSON.stringify(value)])).rows[0].t;

  it.each(SAMPLES)('renders %s attributes exactly as Postgres prints the whole jsonb', async (source, attributes) => {
    const { sql, record } = splitAttributes(source, attributes);
    const stored = await postgresText(sql);
    expect(attributesText(stored, record && readRecord(source, record).attributes)).toBe(await postgresText(attributes));
  });

  it('prints a 311 duplicate mark kept in its column where jsonb put it', async () => {
    for (const attributes of [SAMPLES[3][1], {}, { vanished_on: '2026-11-21', zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz: 1 }]) {
      const { duplicate_of_hpd_complaint: _mark, ...rest } = attributes as Record<string, unknown>;
      const { sql, record } = splitAttributes('nyc311', rest);
      const recorded = record && readRecord('nyc311', record).attributes;
      const printed = attributesText(await postgresText(sql), recorded, '3413002103');
      expect(printed).toBe(await postgresText({ ...rest, duplicate_of_hpd_complaint: '3413002103' }));
      expect(eventAttributes('nyc311', sql, record, '3413002103')).toEqual({ ...rest, duplicate_of_hpd_complaint: '3413002103' });
    }
  });

  it('prints plain values as jsonb does', async () => {
    for (const value of [{ b: 1, a: [true, null, 'x'], ccc: { d: -0.5 } }, [], {}, 'text', 3]) {
      expect(jsonbText(value)).toBe(await postgresText(value));
    }
    // the same key set again (its order is kept once worked out), with a value left out, and in another order
    expect(jsonbText({ b: 2, a: undefined, ccc: 'c' })).toBe(await postgresText({ b: 2, ccc: 'c' }));
    expect(jsonbText({ ccc: null, a: 1, b: [] })).toBe(await postgresText({ ccc: null, a: 1, b: [] }));
    expect(jsonbText({ a: undefined })).toBe('{}');
  });

  it('keeps what SQL reads in jsonb and compresses the rest', () => {
    const attributes = SAMPLES[0][1];
    const { sql, record } = splitAttributes('hpd_violations', attributes);
    expect(sql).toEqual({ amount: 1250.5 });
    expect(record).not.toBeNull();
    const decoded = readRecord('hpd_violations', record as Buffer).attributes;
    expect(decoded).toEqual({ violation_id: 58000001, class: 'B', building_id: 1171, rent_impairing: false, nov_issued_date: '2012-10-25', apartment: null, story: '3' });
    expect(eventAttributes('hpd_violations', sql, record)).toEqual({ ...decoded, amount: 1250.5 });
    // the dictionary of the source pays: far smaller than the JSON it holds
    expect((record as Buffer).length).toBeLessThan(JSON.stringify(decoded).length / 2);
  });

  it('keeps a complaint problem in jsonb as its id and a compact record, unless it has no whole-number id', async () => {
    const problems = (SAMPLES[2][1]['problems'] as unknown[]) ?? [];
    const { sql, record } = splitAttributes('hpd_complaints', SAMPLES[2][1]);
    const stored = sql['problems'] as unknown[];
    expect(stored.map((p) => (typeof p === 'string' ? p.split(' ')[0] : 'whole'))).toEqual(['7', 'whole', '9', 'whole', 'whole']);
    // what a problem takes in jsonb: the published object against its compact form
    const size = async (value: unknown) => (await pool.query<{ n: number }>('SELECT pg_column_size($1::jsonb) AS n', [JSON.stringify(value)])).rows[0].n;
    expect(await size(stored[0])).toBeLessThan((await size(problems[0])) / 3);
    expect(eventAttributes('hpd_complaints', sql, record)).toEqual(SAMPLES[2][1]);
  });

  it('writes no record when every attribute is read by SQL, and numbers jsonb prints differently stay in jsonb', () => {
    expect(splitAttributes('hpd_aep', { vanished_on: '2026-11-21' }).record).toBeNull();
    expect(splitAttributes('x', { big: 1e21 })).toEqual({ sql: { big: 1e21 }, record: null });
  });

  it('encodes the same attributes to the same bytes whatever their key order (a refresh compares bytes)', () => {
    const a = splitAttributes('nyc311', { agency: 'HPD', descriptor: 'PESTS', channel: 'ONLINE' }).record as Buffer;
    const b = splitAttributes('nyc311', { channel: 'ONLINE', descriptor: 'PESTS', agency: 'HPD' }).record as Buffer;
    expect(a.equals(b)).toBe(true);
    expect(a[0]).toBe(3);
  });

  it('writes zstd records where a source has a zstd dictionary, and reads the deflate records stored before', () => {
    const description = 'SEC. 27-2005 ADM CODE PROPERLY REPAIR THE BROKEN OR DEFECTIVE PLASTERED SURFACES AND PAINT IN A UNIFORM COLOR';
    const attributes = SAMPLES[0][1];
    const zstd = splitAttributes('hpd_violations', attributes, description).record as Buffer;
    const deflate = splitAttributes('hpd_violations', attributes, description, newestDeflateDictionary('hpd_violations')).record as Buffer;
    expect([zstd[0], deflate[0]]).toEqual([3, 2]);
    expect(readRecord('hpd_violations', zstd)).toEqual(readRecord('hpd_violations', deflate));
    // a source without a zstd dictionary keeps writing deflate
    expect((splitAttributes('hpd_aep', { aep_round: 'Aep Round 5' }).record as Buffer)[0]).toBe(2);
    // the problems of a complaint too: the same problem from either codec
    const problem = { problem_id: 7, type: 'NON EMERGENCY', status: 'CLOSE', space_type: 'KITCHEN' };
    const [newer] = splitAttributes('hpd_complaints', { problems: [problem] }).sql['problems'] as string[];
    const [older] = splitAttributes('hpd_complaints', { problems: [problem] }, null, undefined, newestDeflateDictionary('hpd_complaint_problems')).sql['problems'] as string[];
    expect(newer).not.toBe(older);
    expect([expandProblem(newer), expandProblem(older)]).toEqual([problem, problem]);
  });

  it('keeps the description in the record, out of the attributes, and reads records of the first dictionary too', async () => {
    const description = 'SEC. 27-2005 ADM CODE PROPERLY REPAIR THE BROKEN OR DEFECTIVE PLASTERED SURFACES AND PAINT IN A UNIFORM COLOR';
    const attributes = SAMPLES[0][1];
    const { sql, record } = splitAttributes('hpd_violations', attributes, description);
    const recorded = readRecord('hpd_violations', record as Buffer);
    expect(recorded.description).toBe(description);
    expect(attributesText(jsonbText(sql), recorded.attributes)).toBe(await postgresText(attributes));
    expect(eventAttributes('hpd_violations', sql, record)).toEqual(attributes);
    // the second dictionary knows typical descriptions: far less than the description alone
    const without = splitAttributes('hpd_violations', attributes).record as Buffer;
    expect((record as Buffer).length - without.length).toBeLessThan(description.length / 2);
    // rows written before descriptions moved keep their first-dictionary records
    const older = splitAttributes('hpd_violations', attributes, null, 1).record as Buffer;
    expect(older[0]).toBe(1);
    expect(readRecord('hpd_violations', older)).toEqual({ attributes: readRecord('hpd_violations', without).attributes, description: null });
  });
});
