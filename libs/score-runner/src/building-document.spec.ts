import { buildingDocument, COUNT_KEYS, countsOf, type BuildingScore, type DocumentFacts } from '@bhis/scoring';
import { StagedBuildingDocument, stagedBuildingDocument, withHealthScore } from './building-document';

const FACTS: DocumentFacts = {
  bbl: '1000010001',
  borough: 1,
  address: '123 WEST 45 STREET',
  city: 'NEW YORK',
  zipcode: '10036',
  residential_units: 40,
  total_units: 42,
  year_built: 1925,
  building_class: 'D7',
  owner_name: null,
  latitude: 40.75,
  longitude: -73.98,
};

// the fields of a score the document shows
const SCORE = {
  total_score: 52,
  grade: 'D',
  label: 'Poor',
  scorer_id: 'distress_test',
  peer_group: 'walkup_prewar',
  data_quality: 'good',
  components: { living_conditions: { score: 61.5, grade: 'D' }, complaint_burden: { score: 20, grade: 'B' } },
  flags: ['aep-criteria-met'],
  confidence: { score: 0.8, tier: 'high', flags: [], dimensions: { coverage: 0.9 }, primary_sources: 5, active_families: 4 },
  published_rules: [],
} as unknown as BuildingScore;

describe('the building document of a scoring run', () => {
  const counts = countsOf([]);

  it('has every count of COUNT_KEYS, in its order', () => {
    expect(Object.keys(counts)).toEqual(COUNT_KEYS);
  });

  it('is staged without its health score', () => {
    expect(stagedBuildingDocument(FACTS, SCORE, counts).scores.health_score).toBeNull();
  });

  it('completed with its health score after staging, is the document built with it, to the byte', () => {
    const staged = JSON.parse(JSON.stringify(stagedBuildingDocument(FACTS, SCORE, counts))) as StagedBuildingDocument;
    expect(JSON.stringify(withHealthScore(staged, 37))).toBe(JSON.stringify(buildingDocument(FACTS, SCORE, counts, 37)));
  });
});
