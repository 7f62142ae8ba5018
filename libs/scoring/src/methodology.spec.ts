import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderMethodology } from './methodology';

const DOC = resolve(__dirname, '../../../docs/methodology.md');

describe('methodology', () => {
  it('docs/methodology.md is generated from the model constants', () => {
    const rendered = renderMethodology();
    if (process.env['UPDATE_METHODOLOGY'] === '1') writeFileSync(DOC, rendered);
    let current = '';
    try {
      current = readFileSync(DOC, 'utf8');
    } catch {
      current = '';
    }
    if (current !== rendered) {
      throw new Error('docs/methodology.md differs from renderMethodology(): run UPDATE_METHODOLOGY=1 npx jest --selectProjects scoring -t methodology');
    }
  });

  it('documents every component, flag and anchor', () => {
    const text = renderMethodology();
    for (const key of ['living_conditions', 'complaint_burden', 'fdny-vacate-active', 'aep-criteria-floor', 'clean-record-ceiling', 'stale-source:<key>']) {
      expect(text).toContain(key);
    }
  });
});
