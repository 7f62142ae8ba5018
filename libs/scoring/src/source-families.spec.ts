import { SOURCE_KEYS, SOURCES } from '@bhis/sources';
import { checkScoringUse, FAMILY_OF_SOURCE, SCORING_USE, undeclaredSources } from './source-families';

describe('what the score does with each source of the registry', () => {
  it('scores every source of the registry or says why not', () => {
    expect(SOURCE_KEYS).toEqual(SOURCES.map((source) => source.key));
    expect(Object.keys(SCORING_USE).sort()).toEqual([...SOURCE_KEYS].sort());
    expect(undeclaredSources()).toEqual([]);
    expect(() => checkScoringUse()).not.toThrow();
    for (const key of SOURCE_KEYS) {
      const use = SCORING_USE[key];
      if (typeof use === 'string') expect(FAMILY_OF_SOURCE[key]).toBe(use);
      else expect(use.notScored.length).toBeGreaterThan(10);
    }
  });

  it('names a source the score neither scores nor declares unused, and refuses to start with it', () => {
    expect(undeclaredSources([...SOURCE_KEYS, 'hpd_new_source'])).toEqual(['hpd_new_source']);
    expect(() => checkScoringUse([...SOURCE_KEYS, 'hpd_new_source'])).toThrow(/hpd_new_source/);
  });
});
