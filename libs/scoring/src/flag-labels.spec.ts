import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { SOURCES } from '@bhis/sources';
import { CONFIDENCE_FLAG_RULES } from './confidence';
import { FLAG_LABELS, flagLabel } from './flag-labels';
import { FLAG_KEYS } from './flags';
import { KNOWN_LIMIT_RULES } from './known-limits';
import { scoreBuilding } from './score-building';
import { histogramArb, unitsArb } from './test-arbitraries';
import { input } from './test-support';

/** Every slug written as a literal into a flag list by the code of the scorer and the scoring run. */
function slugsInSource(): string[] {
  const slugs: string[] = [];
  for (const dir of [__dirname, join(__dirname, '../../score-runner/src')]) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const match of text.matchAll(/flags\.push\('([^']+)'\)|flag: '([^']+)'/g)) slugs.push(match[1] ?? match[2]);
    }
  }
  return [...new Set(slugs)];
}

describe('flag labels', () => {
  it('label every flag the scorer defines, pushes or reports as a known limit', () => {
    const emitted = [...FLAG_KEYS, ...KNOWN_LIMIT_RULES.map((r) => r.key), ...CONFIDENCE_FLAG_RULES.map((r) => r.key), ...slugsInSource()];
    expect(slugsInSource().length).toBeGreaterThan(5);
    const unlabelled = emitted.filter((slug) => !Object.prototype.hasOwnProperty.call(FLAG_LABELS, slug));
    expect(unlabelled).toEqual([]);
    // and nothing labelled that the scorer never emits
    expect(Object.keys(FLAG_LABELS).filter((slug) => !emitted.includes(slug))).toEqual([]);
  });

  it('give each a label and a one-line explanation', () => {
    for (const [slug, { label, explanation }] of Object.entries(FLAG_LABELS)) {
      expect([slug, label.length > 0 && label.length <= 40]).toEqual([slug, true]);
      expect([slug, /^[A-Z].*\.$/.test(explanation) && !explanation.includes('\n')]).toEqual([slug, true]);
    }
  });

  it('name the source of a stale-source flag by its display name', () => {
    for (const source of SOURCES) {
      const { label, explanation } = flagLabel(`stale-source:${source.key}`);
      expect(label).toBe(`Out of date: ${source.name}`);
      expect(explanation).toContain(source.name);
    }
    expect(flagLabel('stale-source:retired_source').label).toBe('Out of date: retired_source');
  });

  it('label the flags of scored buildings, whatever their records', () => {
    fc.assert(
      fc.property(histogramArb, unitsArb, fc.boolean(), (histogram, units, registered) => {
        const score = scoreBuilding(input({ histogram, facts: { residential_units: units, hpd_legal_units: units, registration_end_date: registered ? '2026-09-01' : null } }));
        for (const slug of [...score.flags, ...score.confidence.flags]) expect([slug, flagLabel(slug).explanation.length > 0]).toEqual([slug, true]);
      }),
      { numRuns: 200 },
    );
  });
});
