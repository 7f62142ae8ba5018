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

  it('is strict about case, repeated columns and an empty file', async () => {
    const lower = 'month,Cycle,Borough,Block ,Lot,Tax Class Code,Building Class,Community Board,Council District,House Number,Street Name,Zip Code,Water Debt Only\n';
    await expect(drain(parseSource(getSource('dof_tax_liens'), Readable.from([lower])))).rejects.toThrow(/missing columns \[Month\]; unexpected columns \[month\]/);
    const repeated = 'Month,Month,Cycle,Borough,Block ,Lot,Tax Class Code,Building Class,Community Board,Council District,House Number,Street Name,Zip Code,Water Debt Only\n';
    await expect(drain(parseSource(getSource('dof_tax_liens'), Readable.from([repeated])))).rejects.toThrow(/duplicate column names/);
    await expect(drain(parseSource(getSource('dof_tax_liens'), Readable.from([''])))).rejects.toBeInstanceOf(HeaderMismatchError);
  });
});
