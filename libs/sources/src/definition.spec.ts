import { defineSource, SourceDefinitionInput } from './definition';
import { emit } from './mapping';

const valid: SourceDefinitionInput = {
  key: 'example',
  name: 'Example',
  agency: 'HPD',
  description: 'An example.',
  cadence: 'daily',
  components: ['living_conditions'],
  produces: { events: ['hpd_violation'], facts: [] },
  parts: [
    {
      part: 'main',
      datasetId: 'abcd-1234',
      fileNames: ['example.csv'],
      header: ['Id', 'BBL ', 'When'],
      sodaFields: { Id: 'id' },
      bbl: [{ kind: 'bbl_column', column: 'BBL' }],
      recordKey: (f) => f.raw('Id'),
      map: () => emit([]),
    },
  ],
};

describe('defineSource', () => {
  it('validates and adds the URLs', () => {
    const source = defineSource(valid);
    expect(source.parts[0].urls?.json).toBe('https://data.cityofnewyork.us/resource/abcd-1234.json');
    expect(source.parts[0].headerVariants).toEqual([]);
    expect(source.minimumRows).toBe(0);
  });

  it('fails at load listing every problem', () => {
    const part = valid.parts[0];
    const broken: SourceDefinitionInput = { ...valid, cadence: 'hourly' as never, parts: [{ ...part, datasetId: 'bad', map: 'x' as never }] };
    expect(() => defineSource(broken)).toThrow(/cadence.*datasetId.*map must be a function/s);
  });

  it('checks that every column it names is in the header', () => {
    const part = valid.parts[0];
    const broken: SourceDefinitionInput = { ...valid, parts: [{ ...part, bbl: [{ kind: 'bin', column: 'Nope' }], dayFirstColumns: ['Then'] }] };
    expect(() => defineSource(broken)).toThrow(/column "Then" is not in the header.*column "Nope" is not in the header/s);
  });
});
