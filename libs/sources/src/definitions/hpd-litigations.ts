import { EventStatus } from '@bhis/domain';
import { defineSource } from '../definition';
import { attributes, emit, recordIdValue, requireDate } from '../mapping';
import { headerOf, sodaFieldsFor } from './common';

const HEADER = headerOf(
  'LitigationID,BuildingID,Boro,HouseNumber,StreetName,Zip,Block,Lot,CaseType,CaseOpenDate,CaseStatus,OpenJudgement,FindingOfHarassment,FindingDate,Penalty,Respondent,Latitude,Longitude,Community District,Council District,Census Tract,BIN,BBL,NTA',
);

/** Every case status word, mapped explicitly (null: not a state of the case). */
const CASE_STATUS: Readonly<Record<string, EventStatus | null>> = {
  OPEN: 'open',
  PENDING: 'open',
  ACTIVE: 'open',
  CLOSED: 'closed',
  CLOSE: 'closed',
  RESOLVED: 'resolved',
  DISMISSED: 'dismissed',
  WITHDRAWN: 'dismissed',
};

export const hpdLitigations = defineSource({
  key: 'hpd_litigations',
  name: 'Housing Litigations',
  agency: 'HPD',
  description: 'HPD housing court cases: case type, open date, status, judgement, harassment finding, penalty.',
  cadence: 'monthly',
  components: ['legal_enforcement', 'management_quality'],
  produces: { events: ['hpd_litigation'], facts: [] },
  minimumRows: 200_000,
  parts: [
    {
      part: 'main',
      datasetId: '59kj-x8nc',
      fileNames: ['hpd_litigations.csv'],
      header: HEADER,
      // published field names (docs/sources.md, "Field names"): the judgement and borough-id columns kept older names
      sodaFields: sodaFieldsFor(HEADER, { OpenJudgement: 'casejudgement', Boro: 'boroid' }),
      bbl: [
        { kind: 'bbl_column', column: 'BBL' },
        { kind: 'borough_block_lot', borough: 'Boro', block: 'Block', lot: 'Lot' },
        { kind: 'bin', column: 'BIN' },
      ],
      recordKey: (f) => f.raw('LitigationID') || null,
      map: ({ f, event, recordKey }) => {
        const opened = requireDate(f, 'CaseOpenDate');
        if (!opened.ok) return opened.outcome;
        const caseType = f.text('CaseType');
        const harassment = f.text('FindingOfHarassment');
        return emit([
          event({
            event_type: 'hpd_litigation',
            classify_by: [['CaseType', caseType]],
            status: f.word('CaseStatus', CASE_STATUS),
            occurred_on: opened.date,
            description: caseType ? `Housing litigation: ${caseType}` : 'Housing litigation',
            attributes: attributes({
              litigation_id: recordIdValue(recordKey),
              case_type: caseType,
              case_status: f.text('CaseStatus'),
              open_judgement: f.bool('OpenJudgement'),
              finding_of_harassment: harassment,
              finding_date: f.date('FindingDate'),
              penalty: f.decimal('Penalty'),
              respondent: f.text('Respondent'),
              building_id: f.int('BuildingID'),
            }),
          }),
        ]);
      },
    },
  ],
});
