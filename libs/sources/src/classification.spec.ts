import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CATEGORIES, EVENT_TYPES, SEVERITIES } from '@bhis/domain';
import { classify, CLASSIFICATION, renderClassificationTable } from './classification';
import { SOURCES } from './registry';

describe('classification table', () => {
  it('has a complete default row for every event type a source produces', () => {
    for (const source of SOURCES) {
      for (const eventType of source.produces.events) {
        expect(() => classify(eventType, [])).not.toThrow();
      }
    }
  });

  it('uses only the domain vocabulary', () => {
    for (const rule of CLASSIFICATION) {
      expect(EVENT_TYPES).toContain(rule.eventType);
      if (rule.category) expect(CATEGORIES).toContain(rule.category);
      if (rule.severity) expect(SEVERITIES).toContain(rule.severity);
    }
  });

  it('decides by priority, exact value, then prefix, then default', () => {
    expect(classify('hpd_violation', [['OrderNumber', '583'], ['code section', '27-2005'], ['Class', 'B']])).toEqual({ category: 'water_damage', severity: 'high' });
    expect(classify('hpd_violation', [['OrderNumber', '999'], ['code section', '27-2017.4'], ['Class', 'C']])).toEqual({ category: 'pests', severity: 'critical' });
    expect(classify('hpd_violation', [['OrderNumber', '999'], ['code section', '27-2056.4'], ['Class', 'c']])).toEqual({ category: 'lead_paint', severity: 'critical' });
    expect(classify('hpd_violation', [['OrderNumber', null], ['code section', null], ['Class', 'I']])).toEqual({ category: 'administrative', severity: 'info' });
    expect(classify('ecb_violation', [['SEVERITY', 'CLASS - 1'], ['VIOLATION_TYPE', 'Boilers']])).toEqual({ category: 'boiler', severity: 'critical' });
    expect(classify('hpd_vacate_order', [['PRIMARY VACATE REASON', 'Fire Damage'], ['VACATE TYPE', 'Entire Building']])).toEqual({ category: 'fire', severity: 'critical' });
    expect(classify('dob_complaint', [['Complaint Category', 'ZZ']])).toEqual({ category: 'other', severity: 'low' });
  });

  it('is the table docs/event-classification.md carries', () => {
    const doc = readFileSync(path.resolve(__dirname, '../../../docs/event-classification.md'), 'utf8');
    expect(doc).toContain(renderClassificationTable());
  });
});
