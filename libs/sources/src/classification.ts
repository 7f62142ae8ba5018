import { EventCategory, EventType, Severity } from '@bhis/domain';

/**
 * The one table that turns source values into a normalized category and severity, per event type.
 * docs/event-classification.md is generated from it (renderClassificationTable) and a test keeps
 * the two identical.
 *
 * A row says: for events of `eventType`, when the source value `on` equals `value`, the event gets
 * `category` and/or `severity`. A value ending in `*` matches by prefix (the longest prefix wins).
 * The row with `on: '*'` is the default of the event type. Values are compared upper-cased and trimmed.
 */
export interface ClassificationRule {
  readonly eventType: EventType;
  readonly on: string;
  readonly value: string;
  readonly category: EventCategory | null;
  readonly severity: Severity | null;
  readonly note?: string;
}

type RuleTuple = readonly [on: string, value: string, category: EventCategory | null, severity: Severity | null, note?: string];

function rules(eventType: EventType, rows: readonly RuleTuple[]): ClassificationRule[] {
  return rows.map(([on, value, category, severity, note]) => ({ eventType, on, value, category, severity, ...(note ? { note } : {}) }));
}

const DEFAULT = '*';

export const CLASSIFICATION: readonly ClassificationRule[] = [
  // HPD Housing Maintenance Code violations: severity from the class, category from the order
  // number first, then from the code section cited in the NOV (never from words of the description).
  ...rules('hpd_violation', [
    [DEFAULT, DEFAULT, 'habitability', 'medium'],
    ['Class', 'C', null, 'critical', 'immediately hazardous: correct within 24 hours'],
    ['Class', 'B', null, 'high', 'hazardous: correct within 30 days'],
    ['Class', 'A', null, 'medium', 'non-hazardous: correct within 90 days'],
    ['Class', 'I', 'administrative', 'info', 'information orders (registration, vacate and program notices)'],
    ['OrderNumber', '550', 'mold', null, 'trace and repair the source and abate the nuisance consisting of mold'],
    ['OrderNumber', '583', 'water_damage', null, 'trace and repair the source of the water leak'],
    ['OrderNumber', '670', 'heat_hot_water', null, 'provide hot water at all hot water fixtures (27-2031)'],
    ['OrderNumber', '672', 'heat_hot_water', null, 'provide ready access to the heating system (27-2033)'],
    ['OrderNumber', '702', 'fire_safety', null, 'smoke detector (27-2045)'],
    ['OrderNumber', '1503', 'fire_safety', null, 'carbon monoxide detector (27-2046.1)'],
    ['OrderNumber', '522', 'fire_safety', null, 'fire egress: obstructing bars or unlawful window gates'],
    ['OrderNumber', '526', 'fire_safety', null, 'illegal double cylinder lock'],
    ['OrderNumber', '686', 'security', null, 'lighting at the entranceway (27-2040)'],
    ['OrderNumber', '982', 'security', null, 'lighting of public parts (27-2038)'],
    ['OrderNumber', '899', 'plumbing', null, 'gas-tight waste lines (27-2026)'],
    ['OrderNumber', '501', 'habitability', null, 'repair broken or defective fixture (27-2005)'],
    ['OrderNumber', '502', 'habitability', null, 'repair with similar material (27-2005)'],
    ['OrderNumber', '508', 'habitability', null, 'repair plastered surfaces and paint (27-2005)'],
    ['OrderNumber', '529', 'habitability', null, 'refit window sash (27-2005)'],
    ['OrderNumber', '556', 'habitability', null, 'paint with light colored paint (27-2013)'],
    ['OrderNumber', '801', 'habitability', null, 'repair broken or defective fixture (27-2005)'],
    ['OrderNumber', '802', 'habitability', null, 'repair with similar material (27-2005)'],
    ['OrderNumber', '806', 'habitability', null, 'replace missing fixture part, e.g. a hot water knob: not a leak'],
    ['OrderNumber', '856', 'habitability', null, 'paint with light colored paint (27-2013)'],
    ['code section', '27-2017.3', 'mold', null, 'mold (Local Law 55 of 2018)'],
    ['code section', '27-2017*', 'pests', null, 'indoor allergen hazards: pests (27-2017, 27-2017.4...)'],
    ['code section', '27-2018', 'pests', null, 'elimination of rodents, insects and other pests'],
    ['code section', '27-2056*', 'lead_paint', null, 'lead-based paint hazards (Local Law 1 of 2004)'],
    ['code section', '27-2028', 'heat_hot_water', null, 'heating system'],
    ['code section', '27-2029', 'heat_hot_water', null, 'minimum heat'],
    ['code section', '27-2030', 'heat_hot_water', null, 'heating equipment'],
    ['code section', '27-2031', 'heat_hot_water', null, 'hot water'],
    ['code section', '27-2032', 'heat_hot_water', null, 'heat and hot water equipment'],
    ['code section', '27-2033*', 'heat_hot_water', null, 'access to and reporting on the heating system'],
    ['code section', '27-2024', 'plumbing', null, 'water supply'],
    ['code section', '27-2026', 'plumbing', null, 'plumbing and drainage'],
    ['code section', '27-2037', 'electrical', null, 'electric wiring and fixtures'],
    ['code section', '27-2070', 'gas', null, 'gas supply'],
    ['code section', '27-2073', 'gas', null, 'gas for cooking'],
    ['code section', '27-2045', 'fire_safety', null, 'smoke detectors'],
    ['code section', '27-2046*', 'fire_safety', null, 'carbon monoxide detectors'],
    ['code section', '27-2010', 'sanitation', null, 'cleanliness of public parts'],
    ['code section', '27-2011', 'sanitation', null, 'yards, courts and open spaces'],
    ['code section', '27-2021', 'sanitation', null, 'receptacles for waste'],
    ['code section', '27-2022', 'sanitation', null, 'collection of waste'],
    ['code section', '27-2038', 'security', null, 'lighting of public parts'],
    ['code section', '27-2039', 'security', null, 'lighting at mailboxes'],
    ['code section', '27-2040', 'security', null, 'entrance lighting'],
    ['code section', '27-2041', 'security', null, 'door viewers'],
    ['code section', '27-2043', 'security', null, 'locks'],
    ['code section', '27-2043.1', 'habitability', null, 'window guards'],
    ['code section', '27-2013', 'habitability', null, 'painting of public parts and dwelling units'],
    ['code section', '27-2005', 'habitability', null, "owner's general duty to repair"],
    ['code section', '27-2077', 'illegal_occupancy', null, 'illegal rooming units'],
    ['code section', '27-2081', 'illegal_occupancy', null, 'occupancy contrary to law'],
  ]),

  // HPD complaints (one row per problem): severity from the complaint Type, category from the
  // minor category first, then the major category.
  ...rules('hpd_complaint', [
    [DEFAULT, DEFAULT, 'habitability', 'low'],
    ['Type', 'IMMEDIATE EMERGENCY', null, 'high'],
    ['Type', 'EMERGENCY', null, 'medium'],
    ['Type', 'HAZARDOUS', null, 'medium'],
    ['Type', 'NON EMERGENCY', null, 'low'],
    ['Type', 'REFERRAL', null, 'info'],
    ['Minor Category', 'PESTS', 'pests', null],
    ['Minor Category', 'MOLD', 'mold', null],
    ['Minor Category', 'SMOKE DETECTOR', 'fire_safety', null],
    ['Minor Category', 'CARBON MONOXIDE DETECTOR', 'fire_safety', null],
    ['Minor Category', 'GARBAGE/RECYCLING STORAGE', 'sanitation', null],
    ['Minor Category', 'LEAD', 'lead_paint', null],
    ['Minor Category', 'GAS LEAK', 'gas', null],
    ['Major Category', 'HEAT/HOT WATER', 'heat_hot_water', null],
    ['Major Category', 'WATER LEAK', 'water_damage', null],
    ['Major Category', 'PLUMBING', 'plumbing', null],
    ['Major Category', 'PAINT/PLASTER', 'habitability', null],
    ['Major Category', 'UNSANITARY CONDITION', 'sanitation', null],
    ['Major Category', 'DOOR/WINDOW', 'security', null],
    ['Major Category', 'ELECTRIC', 'electrical', null],
    ['Major Category', 'FLOORING/STAIRS', 'structural', null],
    ['Major Category', 'ELEVATOR', 'elevator', null],
    ['Major Category', 'SAFETY', 'fire_safety', null],
    ['Major Category', 'APPLIANCE', 'habitability', null],
    ['Major Category', 'GENERAL', 'habitability', null],
    ['Major Category', 'OUTSIDE BUILDING', 'habitability', null],
    ['Major Category', 'LEAD', 'lead_paint', null],
    ['Major Category', 'MOLD', 'mold', null],
  ]),

  // 311 service requests: only these complaint types (from HPD, DOB or DOHMH) are events;
  // every other row is counted as not relevant.
  ...rules('complaint_311', [
    [DEFAULT, DEFAULT, 'other', 'low'],
    ['Complaint Type', 'HEAT/HOT WATER', 'heat_hot_water', 'medium'],
    ['Complaint Type', 'HEATING', 'heat_hot_water', 'medium', 'HPD type used before 2014'],
    ['Complaint Type', 'PLUMBING', 'plumbing', 'low'],
    ['Complaint Type', 'WATER LEAK', 'water_damage', 'medium'],
    ['Complaint Type', 'PAINT/PLASTER', 'habitability', 'low'],
    ['Complaint Type', 'PAINT - PLASTER', 'habitability', 'low', 'HPD type used before 2014'],
    ['Complaint Type', 'UNSANITARY CONDITION', 'sanitation', 'low'],
    ['Complaint Type', 'DOOR/WINDOW', 'security', 'low'],
    ['Complaint Type', 'ELECTRIC', 'electrical', 'medium'],
    ['Complaint Type', 'ELECTRICAL', 'electrical', 'medium', 'DOB'],
    ['Complaint Type', 'FLOORING/STAIRS', 'structural', 'low'],
    ['Complaint Type', 'ELEVATOR', 'elevator', 'medium'],
    ['Complaint Type', 'SAFETY', 'fire_safety', 'medium'],
    ['Complaint Type', 'GENERAL', 'habitability', 'low'],
    ['Complaint Type', 'GENERAL CONSTRUCTION', 'habitability', 'low', 'HPD type used before 2014'],
    ['Complaint Type', 'NONCONST', 'habitability', 'low', 'HPD type used before 2014'],
    ['Complaint Type', 'APPLIANCE', 'habitability', 'low'],
    ['Complaint Type', 'OUTSIDE BUILDING', 'habitability', 'low'],
    ['Complaint Type', 'RODENT', 'pests', 'low', 'DOHMH'],
    ['Complaint Type', 'MOLD', 'mold', 'medium', 'DOHMH'],
    ['Complaint Type', 'LEAD', 'lead_paint', 'high', 'DOHMH'],
    ['Complaint Type', 'INDOOR AIR QUALITY', 'habitability', 'low', 'DOHMH'],
    ['Complaint Type', 'BOILERS', 'boiler', 'medium', 'DOB'],
    ['Complaint Type', 'BUILDING/USE', 'illegal_occupancy', 'medium', 'DOB'],
    ['Complaint Type', 'GENERAL CONSTRUCTION/PLUMBING', 'construction', 'low', 'DOB'],
    ['Complaint Type', 'SPECIAL PROJECTS INSPECTION TEAM (SPIT)', 'illegal_occupancy', 'low', 'DOB'],
    ['Complaint Type', 'SPECIAL ENFORCEMENT', 'illegal_occupancy', 'low', 'DOB'],
    ['Complaint Type', 'FACADE INSPECTION SAFETY PROGRAM', 'facade', 'medium', 'DOB'],
    ['Complaint Type', 'SCAFFOLD SAFETY', 'construction', 'low', 'DOB'],
  ]),

  ...rules('hpd_litigation', [
    [DEFAULT, DEFAULT, 'litigation', 'medium'],
    ['CaseType', 'HEAT AND HOT WATER', 'litigation', 'medium'],
    ['CaseType', 'TENANT ACTION', 'litigation', 'medium'],
    ['CaseType', 'TENANT ACTION/HARRASSMENT', 'litigation', 'high', 'spelled so by the publisher'],
    ['CaseType', 'COMPREHENSIVE', 'litigation', 'high'],
    ['CaseType', 'CONH', 'litigation', 'high', 'certification of no harassment'],
    ['CaseType', '7A', 'litigation', 'critical', 'court-appointed 7A administrator'],
    ['CaseType', 'ACCESS WARRANT - NON-LEAD', 'litigation', 'low'],
    ['CaseType', 'ACCESS WARRANT - LEAD', 'litigation', 'low'],
    ['CaseType', 'FALSE CERTIFICATION NON-LEAD', 'litigation', 'medium'],
    ['CaseType', 'FALSE CERTIFICATION LEAD', 'litigation', 'medium'],
  ]),

  // Vacate orders: the reason decides the category (Fire Damage is a catastrophe flag, not chronic
  // distress), the extent decides the severity.
  ...rules('hpd_vacate_order', [
    [DEFAULT, DEFAULT, 'vacate', 'high'],
    ['PRIMARY VACATE REASON', 'FIRE DAMAGE', 'fire', null],
    ['PRIMARY VACATE REASON', 'ILLEGAL OCCUPANCY', 'illegal_occupancy', null],
    ['PRIMARY VACATE REASON', 'HABITABILITY', 'vacate', null],
    ['VACATE TYPE', 'ENTIRE BUILDING', null, 'critical'],
    ['VACATE TYPE', 'PARTIAL', null, 'high'],
  ]),
  ...rules('dob_vacate_order', [
    [DEFAULT, DEFAULT, 'vacate', 'high'],
    ['Last Disposition Code Description', 'FULL VACATE*', null, 'critical'],
    ['Last Disposition Code Description', 'PARTIAL VACATE*', null, 'high'],
    ['Complaint Category Description', 'ILLEGAL CONVERSION*', 'illegal_occupancy', null],
    ['Complaint Category Description', 'ILLEGAL HOTEL*', 'illegal_occupancy', null],
    ['Complaint Category Description', 'SRO*', 'illegal_occupancy', null],
    ['Complaint Category Description', 'CERTIFICATE OF OCCUPANCY*', 'illegal_occupancy', null],
    ['Complaint Category Description', 'BUILDING SHAKING*', 'structural', null],
    ['Complaint Category Description', 'BUILDING - VACANT*', 'structural', null],
    ['Complaint Category Description', 'EGRESS*', 'fire_safety', null],
    ['Complaint Category Description', 'FAILURE TO MAINTAIN', 'habitability', null],
    ['Complaint Category Description', 'PERMIT - NONE*', 'construction', null],
    ['Complaint Category Description', 'PLUMBING WORK*', 'plumbing', null],
  ]),
  ...rules('hpd_vacate_rescinded', [[DEFAULT, DEFAULT, 'vacate', 'info']]),
  ...rules('fdny_vacate', [[DEFAULT, DEFAULT, 'fire', 'critical', 'drives the fdny-vacate-active flag']]),

  ...rules('aep_enrollment', [[DEFAULT, DEFAULT, 'enforcement_program', 'high']]),
  ...rules('aep_discharged', [[DEFAULT, DEFAULT, 'enforcement_program', 'info']]),
  ...rules('ucp_order', [[DEFAULT, DEFAULT, 'enforcement_program', 'high', 'Underlying Conditions Program: leaks and mold']]),
  ...rules('emergency_repair_omo', [[DEFAULT, DEFAULT, 'emergency_repair', 'medium']]),
  ...rules('emergency_repair_hwo', [[DEFAULT, DEFAULT, 'emergency_repair', 'medium']]),
  ...rules('bedbug_filing', [
    [DEFAULT, DEFAULT, 'pests', 'info', 'annual filing without infested units'],
    ['infested units', 'SOME', 'pests', 'medium'],
  ]),
  ...rules('registration_filed', [[DEFAULT, DEFAULT, 'registration', 'info']]),

  // DOB (BIS) violations: the violation type code.
  ...rules('dob_violation', [
    [DEFAULT, DEFAULT, 'other', 'medium'],
    ['VIOLATION_TYPE_CODE', 'LL6291', 'boiler', 'medium', 'Local Law 62/91 boilers'],
    ['VIOLATION_TYPE_CODE', 'LBLVIO', 'boiler', 'medium', 'low pressure boiler'],
    ['VIOLATION_TYPE_CODE', 'HBLVIO', 'boiler', 'medium', 'high pressure boiler'],
    ['VIOLATION_TYPE_CODE', 'B', 'boiler', 'medium'],
    ['VIOLATION_TYPE_CODE', 'BENCH', 'boiler', 'low'],
    ['VIOLATION_TYPE_CODE', 'E', 'elevator', 'medium'],
    ['VIOLATION_TYPE_CODE', 'ACC1', 'elevator', 'medium', 'elevator affirmation of correction'],
    ['VIOLATION_TYPE_CODE', 'EVCAT1', 'elevator', 'medium', 'elevator annual inspection/test'],
    ['VIOLATION_TYPE_CODE', 'EVCAT5', 'elevator', 'medium', 'elevator five-year test'],
    ['VIOLATION_TYPE_CODE', 'LL1080', 'facade', 'high', 'Local Law 10/80 facades'],
    ['VIOLATION_TYPE_CODE', 'LL1198', 'facade', 'high', 'Local Law 11/98 facades (FISP)'],
    ['VIOLATION_TYPE_CODE', 'FISP*', 'facade', 'high'],
    ['VIOLATION_TYPE_CODE', 'C', 'construction', 'medium'],
    ['VIOLATION_TYPE_CODE', 'AEUHAZ1', 'construction', 'high', 'failure to certify an immediately hazardous (class 1) condition'],
    ['VIOLATION_TYPE_CODE', 'UB', 'structural', 'critical', 'unsafe building'],
    ['VIOLATION_TYPE_CODE', 'IMEGNCY', 'structural', 'critical', 'immediate emergency'],
    ['VIOLATION_TYPE_CODE', 'P', 'plumbing', 'medium'],
    ['VIOLATION_TYPE_CODE', 'LL2604', 'fire_safety', 'high', 'sprinklers'],
    ['VIOLATION_TYPE_CODE', 'LL5', 'fire_safety', 'medium', 'Local Law 5/73 fire safety'],
    ['VIOLATION_TYPE_CODE', 'LANDMK', 'other', 'low'],
  ]),
  ...rules('dob_violation_resolved', [[DEFAULT, DEFAULT, 'other', 'info']]),

  // ECB (OATH) violations issued by DOB: severity from SEVERITY, category from VIOLATION_TYPE.
  ...rules('ecb_violation', [
    [DEFAULT, DEFAULT, 'construction', 'low'],
    ['SEVERITY', 'CLASS - 1', null, 'critical', 'immediately hazardous'],
    ['SEVERITY', 'HAZARDOUS', null, 'high'],
    ['SEVERITY', 'CLASS - 2', null, 'high', 'major'],
    ['SEVERITY', 'NON-HAZARDOUS', null, 'medium'],
    ['SEVERITY', 'CLASS - 3', null, 'medium', 'lesser'],
    ['SEVERITY', 'UNKNOWN', null, 'low'],
    ['VIOLATION_TYPE', 'ELEVATORS', 'elevator', null],
    ['VIOLATION_TYPE', 'BOILERS', 'boiler', null],
    ['VIOLATION_TYPE', 'PLUMBING', 'plumbing', null],
    ['VIOLATION_TYPE', 'CONSTRUCTION', 'construction', null],
    ['VIOLATION_TYPE', 'SITE SAFETY', 'construction', null],
    ['VIOLATION_TYPE', 'ZONING', 'illegal_occupancy', null],
    ['VIOLATION_TYPE', 'LOCAL LAW', 'facade', null],
    ['VIOLATION_TYPE', 'PUBLIC ASSEMBLY', 'fire_safety', null],
    ['VIOLATION_TYPE', 'UNKNOWN', 'other', null],
  ]),
  ...rules('ecb_violation_resolved', [[DEFAULT, DEFAULT, 'construction', 'info']]),

  ...rules('dob_safety_violation', [
    [DEFAULT, DEFAULT, 'other', 'medium'],
    ['Device Type', 'BOILER', 'boiler', null],
    ['Device Type', 'ELEVATOR', 'elevator', null],
    ['Violation Type', 'LL6291', 'boiler', null],
    ['Violation Type', 'LBLVIO', 'boiler', null, 'failure to file the annual boiler inspection'],
    ['Violation Type', 'FTC-VT-*', 'elevator', null, 'failure to file an elevator test'],
    ['Violation Type', 'FISP*', 'facade', 'high'],
    ['Violation Type', 'LL11*', 'facade', 'high'],
    ['Violation Type', 'LL152*', 'gas', null, 'gas piping inspections'],
    ['Violation Type', 'LL126*', 'structural', null, 'parking structures'],
  ]),

  // DOB complaints: the two-character complaint category code (DOB's published list).
  ...rules('dob_complaint', [
    [DEFAULT, DEFAULT, 'other', 'low', 'codes not listed here'],
    ['Complaint Category', '01', 'construction', 'high', 'accident - construction/plumbing'],
    ['Complaint Category', '03', 'structural', 'high', 'adjacent buildings not protected'],
    ['Complaint Category', '04', 'construction', 'low', 'after hours work'],
    ['Complaint Category', '05', 'construction', 'medium', 'permit - none'],
    ['Complaint Category', '10', 'facade', 'critical', 'debris/building falling or in danger of falling'],
    ['Complaint Category', '12', 'construction', 'high', 'demolition unsafe/illegal'],
    ['Complaint Category', '13', 'elevator', 'high', 'elevator in (FDNY) readiness - none'],
    ['Complaint Category', '14', 'structural', 'high', 'excavation undermining adjacent building'],
    ['Complaint Category', '16', 'structural', 'high', 'inadequate support/shoring'],
    ['Complaint Category', '18', 'construction', 'medium', 'material storage unsafe'],
    ['Complaint Category', '21', 'construction', 'medium', 'safety net/guard rail'],
    ['Complaint Category', '23', 'construction', 'medium', 'sidewalk shed/scaffold'],
    ['Complaint Category', '29', 'structural', 'medium', 'building vacant, open and unguarded'],
    ['Complaint Category', '30', 'structural', 'critical', 'building shaking/structural stability affected'],
    ['Complaint Category', '31', 'illegal_occupancy', 'medium', 'certificate of occupancy none/illegal/contrary'],
    ['Complaint Category', '35', 'other', 'low', 'curb cut/driveway'],
    ['Complaint Category', '37', 'fire_safety', 'high', 'egress locked/blocked/improper'],
    ['Complaint Category', '45', 'illegal_occupancy', 'high', 'illegal conversion'],
    ['Complaint Category', '50', 'facade', 'high', 'sign falling - danger'],
    ['Complaint Category', '52', 'fire_safety', 'medium', 'sprinkler system inadequate'],
    ['Complaint Category', '54', 'structural', 'high', 'wall/retaining wall bulging/cracked'],
    ['Complaint Category', '56', 'boiler', 'high', 'boiler fumes/smoke/carbon monoxide'],
    ['Complaint Category', '58', 'boiler', 'medium', 'boiler defective/non-operative'],
    ['Complaint Category', '59', 'electrical', 'high', 'electrical wiring defective/exposed'],
    ['Complaint Category', '62', 'elevator', 'critical', 'elevator danger condition/shaft open'],
    ['Complaint Category', '63', 'elevator', 'medium', 'elevator defective/inoperative'],
    ['Complaint Category', '65', 'gas', 'high', 'gas hook-up/piping illegal or defective'],
    ['Complaint Category', '66', 'plumbing', 'medium', 'plumbing work illegal/no permit'],
    ['Complaint Category', '71', 'illegal_occupancy', 'medium', 'SRO illegal work/change in occupancy'],
    ['Complaint Category', '73', 'habitability', 'medium', 'failure to maintain'],
    ['Complaint Category', '76', 'plumbing', 'medium', 'unlicensed/illegal plumbing work in progress'],
    ['Complaint Category', '81', 'elevator', 'high', 'elevator accident'],
    ['Complaint Category', '82', 'boiler', 'critical', 'boiler accident/explosion'],
    ['Complaint Category', '83', 'construction', 'low', 'work contrary to approved plans'],
    ['Complaint Category', '85', 'water_damage', 'low', 'failure to retain water/improper drainage'],
    ['Complaint Category', '86', 'construction', 'medium', 'work contrary to stop work order'],
    ['Complaint Category', '94', 'plumbing', 'medium', 'plumbing defective/leaking/not maintained'],
    ['Complaint Category', '1A', 'illegal_occupancy', 'medium', 'illegal conversion of commercial space to dwelling units'],
    ['Complaint Category', '2B', 'vacate', 'high', 'failure to comply with vacate order'],
    ['Complaint Category', '2K', 'structural', 'high', 'structurally compromised building'],
    ['Complaint Category', '2L', 'facade', 'high', 'facade (LL11/98) unsafe notification'],
    ['Complaint Category', '3A', 'electrical', 'medium', 'illegal electrical work in progress'],
    ['Complaint Category', '4A', 'illegal_occupancy', 'medium', 'illegal hotel rooms in residential buildings'],
    ['Complaint Category', '6S', 'elevator', 'high', 'elevator - single device, no alternate service'],
  ]),

  ...rules('dob_job_filing', [
    [DEFAULT, DEFAULT, 'permit', 'info', 'reinvestment: lowers deferred maintenance'],
    ['Job Type', 'DM', 'construction', 'info', 'demolition'],
  ]),
  ...rules('dob_now_job_filing', [
    [DEFAULT, DEFAULT, 'permit', 'info', 'reinvestment: lowers deferred maintenance'],
    ['Job Type', 'FULL DEMOLITION', 'construction', 'info'],
  ]),

  // Facade (FISP / Local Law 11) filings: the filing status.
  ...rules('facade_filing', [
    [DEFAULT, DEFAULT, 'facade', 'low'],
    ['filing_status', 'SAFE', 'facade', 'info'],
    ['filing_status', 'SWARMP', 'facade', 'medium', 'safe with a repair and maintenance program'],
    ['filing_status', 'UNSAFE', 'facade', 'critical'],
    ['filing_status', 'NO REPORT FILED', 'facade', 'high'],
  ]),

  ...rules('tax_lien_sale_listing', [
    [DEFAULT, DEFAULT, 'financial', 'medium'],
    ['Cycle', '90 DAY NOTICE', 'financial', 'low'],
    ['Cycle', '60 DAY NOTICE', 'financial', 'medium'],
    ['Cycle', '30 DAY NOTICE', 'financial', 'medium'],
    ['Cycle', '10 DAY NOTICE', 'financial', 'high'],
    ['Cycle', '10 DAYS NOTICE', 'financial', 'high', 'the spelling of some years'],
    ['Cycle', 'FINAL*', 'financial', 'high'],
  ]),

  // DOHMH rodent inspections: the result, in full through SODA and in the 2026 export, truncated in
  // older exports ("Failed for Other R"); the words are those of docs/sources.md.
  ...rules('rodent_inspection', [
    [DEFAULT, DEFAULT, 'pests', 'low'],
    ['RESULT', 'PASSED', 'pests', 'info'],
    ['RESULT', 'FAILED FOR RAT ACTIVITY*', 'pests', 'high', 'rat activity, alone or with other reasons'],
    ['RESULT', 'FAILED FOR OTHER R*', 'sanitation', 'medium', 'failed for other reasons (garbage, harborage)'],
    ['RESULT', 'BAIT APPLIED', 'pests', 'low'],
    ['RESULT', 'MONITORING VISIT', 'pests', 'info'],
    ['RESULT', 'CLEANUP DONE', 'sanitation', 'info'],
    ['RESULT', 'STOPPAGE DONE', 'pests', 'info'],
  ]),

  ...rules('eviction', [
    [DEFAULT, DEFAULT, 'eviction', 'high'],
    ['Eviction/Legal Possession', 'POSSESSION', 'eviction', 'high'],
    ['Eviction/Legal Possession', 'EVICTION', 'eviction', 'high'],
  ]),
];

export interface Classification {
  category: EventCategory;
  severity: Severity;
}

/** Pairs of (source field, value) in priority order: the first that has a row decides. */
export type ClassificationKeys = ReadonlyArray<readonly [on: string, value: string | null | undefined]>;

interface RuleIndex {
  exact: Map<string, ClassificationRule>;
  /** Rules on a prefix, longest first, with their normalized prefix. */
  prefixes: { prefix: string; rule: ClassificationRule }[];
  /** The rule found for a value as the file gave it: values repeat on most rows of a file. */
  found: Map<string, ClassificationRule | null>;
}

/** Values remembered per rule index: far more than the distinct values of any classified column. */
const FOUND_VALUES = 10_000;

const INDEX: ReadonlyMap<string, RuleIndex> = buildIndex(CLASSIFICATION);

function indexKey(eventType: string, on: string): string {
  return `${eventType}\u0000${on}`;
}

function normalizeValue(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toUpperCase();
}

function buildIndex(table: readonly ClassificationRule[]): Map<string, RuleIndex> {
  const index = new Map<string, RuleIndex>();
  for (const rule of table) {
    const key = indexKey(rule.eventType, rule.on);
    const entry: RuleIndex = index.get(key) ?? { exact: new Map<string, ClassificationRule>(), prefixes: [], found: new Map() };
    if (rule.value.endsWith('*') && rule.value !== DEFAULT) entry.prefixes.push({ prefix: normalizeValue(rule.value.slice(0, -1)), rule });
    else entry.exact.set(normalizeValue(rule.value), rule);
    index.set(key, entry);
  }
  for (const entry of index.values()) entry.prefixes.sort((a, b) => b.rule.value.length - a.rule.value.length);
  return index;
}

function findRule(eventType: EventType, on: string, value: string): ClassificationRule | undefined {
  const entry = INDEX.get(indexKey(eventType, on));
  if (!entry) return undefined;
  const found = entry.found.get(value);
  if (found !== undefined) return found ?? undefined;
  const normalized = normalizeValue(value);
  const rule = entry.exact.get(normalized) ?? entry.prefixes.find(({ prefix }) => normalized.startsWith(prefix))?.rule;
  if (entry.found.size < FOUND_VALUES) entry.found.set(value, rule ?? null);
  return rule;
}

/** Category and severity of an event from its source values (see CLASSIFICATION). */
export function classify(eventType: EventType, keys: ClassificationKeys): Classification {
  const fallback = findRule(eventType, DEFAULT, DEFAULT);
  if (!fallback?.category || !fallback.severity) {
    throw new Error(`classification table has no default row for ${eventType}`);
  }
  let category: EventCategory | null = null;
  let severity: Severity | null = null;
  for (const [on, value] of keys) {
    if (value === null || value === undefined || value.trim() === '') continue;
    const rule = findRule(eventType, on, value);
    if (!rule) continue;
    category ??= rule.category;
    severity ??= rule.severity;
    if (category && severity) break;
  }
  return { category: category ?? fallback.category, severity: severity ?? fallback.severity };
}

/** True when the table has a row for this exact value (used to decide 311 relevance). */
export function hasClassificationRule(eventType: EventType, on: string, value: string | null): boolean {
  return value !== null && findRule(eventType, on, value) !== undefined;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The classification table as Markdown, exactly as docs/event-classification.md carries it. */
export function renderClassificationTable(): string {
  const lines = [
    '| Event type | Decided by | Source value | Category | Severity | Note |',
    '|---|---|---|---|---|---|',
  ];
  for (const rule of CLASSIFICATION) {
    const decidedBy = rule.on === DEFAULT ? '(default)' : rule.on;
    const value = rule.value === DEFAULT ? '(any other)' : `\`${rule.value}\``;
    lines.push(
      `| ${rule.eventType} | ${cell(decidedBy)} | ${cell(value)} | ${rule.category ?? '-'} | ${rule.severity ?? '-'} | ${cell(rule.note ?? '')} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
