import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { HeaderMismatchError } from './header';
import { parseSource } from './parse';
import { getSource } from './registry';
import { sharedFixture } from './testing/fixtures';

async function drain(iterable: AsyncIterable<unknown>): Promise<number> {
  let count = 0;
  for await (const _ of iterable) count += 1;
  return count;
}

describe('header check', () => {
  it('fails loudly on the drifted ECB header, naming missing and unexpected columns', async () => {
    const run = parseSource(getSource('dob_ecb_violations'), createReadStream(sharedFixture('ecb_violations_invalid_header.csv')));
    const failure = drain(run);
    await expect(failure).rejects.toBeInstanceOf(HeaderMismatchError);
    await expect(failure).rejects.toThrow(/missing columns \[HEARING_STATUS\]; unexpected columns \[MISHEARING_STATUS\]/);
    const error = (await failure.catch((e: unknown) => e)) as HeaderMismatchError;
    expect(error.missing).toEqual(['HEARING_STATUS']);
    expect(error.unexpected).toEqual(['MISHEARING_STATUS']);
  });

  it('compares names trimmed: padding in a header is not drift', async () => {
    const header = 'Month,Cycle,Borough,Block,Lot  ,Tax Class Code,Building Class,Community Board,Council District,House Number,Street Name,Zip Code,Water Debt Only\n';
    const run = parseSource(getSource('dof_tax_liens'), Readable.from([header, '04/2019,90 Day Notice,1,16,3,4,Z9,101,1,401,SOUTH END AVENUE,10280,NO\n']));
    expect(await drain(run)).toBe(1);
    expect(run.counters.ok).toBe(1);
  });

  it('matches by normalised name: BOM, case, repeated and trailing spaces', async () => {
    const messy = '\uFEFFmonth,CYCLE,borough,Block  ,lot,Tax  Class Code,Building Class,Community Board,Council District,House Number,Street Name,Zip Code,Water Debt Only \n';
    const run = parseSource(getSource('dof_tax_liens'), Readable.from([messy, '04/2019,90 Day Notice,1,16,3,4,Z9,101,1,401,SOUTH END AVENUE,10280,NO\n']));
    const records = [];
    for await (const record of run) records.push(record);
    expect(run.counters).toMatchObject({ ok: 1, variant: 'current' });
    expect(records[0].outcome).toMatchObject({ kind: 'ok', events: [{ bbl: '1000160003' }] });
  });

  it('reads columns by name, never by position', async () => {
    const source = getSource('dof_tax_liens');
    const row = { Month: '04/2019', Cycle: '90 Day Notice', Borough: '1', 'Block ': '16', Lot: '3', 'Tax Class Code': '4', 'Building Class': 'Z9', 'Community Board': '101', 'Council District': '1', 'House Number': '401', 'Street Name': 'SOUTH END AVENUE', 'Zip Code': '10280', 'Water Debt Only': 'NO' };
    const names = Object.keys(row).reverse();
    const run = parseSource(source, Readable.from([`${names.join(',')}\n`, `${names.map((n) => row[n as keyof typeof row]).join(',')}\n`]));
    const records = [];
    for await (const record of run) records.push(record);
    expect(records[0].outcome).toMatchObject({ kind: 'ok', events: [{ bbl: '1000160003', occurred_on: '2019-04-01' }] });
  });

  it('never guesses between two columns, fails on an empty file', async () => {
    const repeated = 'Month,MONTH,Cycle,Borough,Block ,Lot,Tax Class Code,Building Class,Community Board,Council District,House Number,Street Name,Zip Code,Water Debt Only\n';
    await expect(drain(parseSource(getSource('dof_tax_liens'), Readable.from([repeated])))).rejects.toThrow(/duplicate column names: Month \/ MONTH/);
    const spaced = 'Month,Cycle,Borough,Block ,Block,Lot,Tax Class Code,Building Class,Community Board,Council District,House Number,Street Name,Zip Code,Water Debt Only\n';
    await expect(drain(parseSource(getSource('dof_tax_liens'), Readable.from([spaced])))).rejects.toThrow(/duplicate column names/);
    await expect(drain(parseSource(getSource('dof_tax_liens'), Readable.from([''])))).rejects.toBeInstanceOf(HeaderMismatchError);
  });

  it('an unknown header names the missing and the unexpected columns', async () => {
    const drifted = 'Month,Cycle,Borough,Block,Lot,Tax Class,Building Class,Community Board,Council District,House Number,Street Name,Zip Code,Water Debt Only,Surprise\n';
    await expect(drain(parseSource(getSource('dof_tax_liens'), Readable.from([drifted])))).rejects.toThrow(
      /missing columns \[Tax Class Code\]; unexpected columns \[Tax Class, Surprise\]/,
    );
  });
});
