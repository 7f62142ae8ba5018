import { DatasetMetadataError, fieldNameMap, readDatasetMetadata } from './dataset-metadata';

const DATASET = 'data set 6z8x-wfk4 (main)';

describe('reading a view metadata document', () => {
  it('keeps the display name and field name of each column, without the system columns', () => {
    const meta = readDatasetMetadata(
      {
        rowsUpdatedAt: 1_790_000_000,
        columns: [
          { id: -1, name: 'sid', dataTypeName: 'meta_data', fieldName: ':sid', position: 0, flags: ['hidden'] },
          { id: 1, name: 'Eviction Postcode', dataTypeName: 'text', fieldName: 'eviction_zip', position: 1 },
          { id: 2, name: 'BBL', fieldName: 'bbl', position: 2 },
        ],
      },
      DATASET,
    );
    expect(meta).toEqual({ rowsUpdatedAt: 1_790_000_000, columns: [{ name: 'Eviction Postcode', fieldName: 'eviction_zip' }, { name: 'BBL', fieldName: 'bbl' }] });
    expect(fieldNameMap(meta).get('Eviction Postcode')).toBe('eviction_zip');
  });

  it.each([
    ['not an object', [], /the view metadata is not a JSON object/],
    ['without columns', { rowsUpdatedAt: 1 }, /the view metadata lists no columns/],
    ['with no columns', { columns: [] }, /the view metadata lists no columns/],
    ['with only system columns', { columns: [{ name: 'id', fieldName: ':id' }] }, /lists only system columns/],
    ['with a column without a field name', { columns: [{ name: 'BBL', fieldName: 'bbl' }, { name: 'BIN' }] }, /malformed: column 2 \({"name":"BIN"}\)/],
    ['with a field published twice', { columns: [{ name: 'BBL', fieldName: 'bbl' }, { name: 'Lot BBL', fieldName: 'bbl' }] }, /malformed: field bbl published twice/],
  ])('fails naming the data set when it is %s', (_what, json, message) => {
    expect(() => readDatasetMetadata(json, DATASET)).toThrow(DatasetMetadataError);
    expect(() => readDatasetMetadata(json, DATASET)).toThrow(new RegExp(`^data set 6z8x-wfk4 \\(main\\): .*${message.source}`));
  });
});
