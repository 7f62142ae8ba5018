import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SCORER_ID } from './grades';

describe('SCORER_ID', () => {
  it('is the version identifier the interface contract names (docs/interface-spec.md, scorer_id)', () => {
    const spec = readFileSync(resolve(__dirname, '../../../docs/interface-spec.md'), 'utf8');
    const named = /The current version identifier is `([a-z0-9_]+)`/.exec(spec)?.[1];
    expect(named).toBeDefined();
    expect(SCORER_ID).toBe(named);
    expect(spec).toContain(`distress model \`${SCORER_ID}\``);
  });
});
