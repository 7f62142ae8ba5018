/** Code lists of the public data sets, with the wording the real files use. */

export type ViolationClass = 'A' | 'B' | 'C' | 'I';

export interface ViolationCode {
  readonly order: string;
  readonly cls: ViolationClass;
  /** NOV description without the apartment suffix */
  readonly text: string;
  /** the HPD complaint major category this violation answers (chains complaint -> violation) */
  readonly category: string;
  readonly rentImpairing: boolean;
  readonly weight: number;
  /** inside an apartment (the description names it) */
  readonly inUnit: boolean;
}

/** Water damage and mold are recognised by order number (583 leak, 550 mold), as docs/data-sources.md advises. */
export const VIOLATION_CODES: readonly ViolationCode[] = [
  { order: '508', cls: 'B', text: 'SECTION 27-2005 ADM CODE REPAIR THE BROKEN OR DEFECTIVE PLASTERED SURFACES AND PAINT IN A UNIFORM COLOR', category: 'PAINT/PLASTER', rentImpairing: false, weight: 14, inUnit: true },
  { order: '510', cls: 'A', text: 'SECTION 27-2013 ADM CODE PAINT WITH LIGHT COLORED PAINT TO THE SATISFACTION OF THIS DEPARTMENT', category: 'PAINT/PLASTER', rentImpairing: false, weight: 10, inUnit: true },
  { order: '502', cls: 'B', text: 'SECTION 27-2005 ADM CODE PROPERLY REPAIR WITH SIMILAR MATERIAL THE BROKEN OR DEFECTIVE CERAMIC FLOOR TILES', category: 'FLOORING/STAIRS', rentImpairing: false, weight: 5, inUnit: true },
  { order: '501', cls: 'B', text: 'SECTION 27-2005 ADM CODE PROPERLY REPAIR THE BROKEN OR DEFECTIVE WOOD FLOORING', category: 'FLOORING/STAIRS', rentImpairing: false, weight: 4, inUnit: true },
  { order: '583', cls: 'B', text: 'SECTION 27-2005 ADM CODE TRACE AND REPAIR THE SOURCE AND ABATE THE NUISANCE CONSISTING OF WATER LEAK AT CEILING', category: 'WATER LEAK', rentImpairing: false, weight: 8, inUnit: true },
  { order: '550', cls: 'B', text: 'SECTION 27-2017.3 HMC: TRACE AND ERADICATE THE SOURCE OF THE MOLD CONDITION AND REMOVE THE VISIBLE MOLD, CORRECT THE UNDERLYING DEFECT', category: 'UNSANITARY CONDITION', rentImpairing: false, weight: 5, inUnit: true },
  { order: '556', cls: 'B', text: 'SECTION 27-2026 ADM CODE REPAIR THE LEAKY AND/OR DEFECTIVE FAUCETS', category: 'PLUMBING', rentImpairing: false, weight: 6, inUnit: true },
  { order: '557', cls: 'B', text: 'SECTION 27-2026 ADM CODE REPAIR THE DEFECTIVE WATER CLOSET FLUSH TANK', category: 'PLUMBING', rentImpairing: false, weight: 4, inUnit: true },
  { order: '567', cls: 'C', text: 'SECTION 27-2018 ADM CODE ABATE THE NUISANCE CONSISTING OF MICE', category: 'UNSANITARY CONDITION', rentImpairing: false, weight: 5, inUnit: true },
  { order: '568', cls: 'C', text: 'SECTION 27-2018 ADM CODE ABATE THE NUISANCE CONSISTING OF ROACHES', category: 'UNSANITARY CONDITION', rentImpairing: false, weight: 6, inUnit: true },
  { order: '569', cls: 'C', text: 'SECTION 27-2018 ADM CODE ABATE THE NUISANCE CONSISTING OF RATS', category: 'UNSANITARY CONDITION', rentImpairing: true, weight: 1, inUnit: false },
  { order: '780', cls: 'C', text: 'SECTION 27-2029 ADM CODE PROVIDE ADEQUATE SUPPLY OF HEAT TO THE ENTIRE BUILDING', category: 'HEAT/HOT WATER', rentImpairing: true, weight: 3, inUnit: false },
  { order: '781', cls: 'C', text: 'SECTION 27-2031 ADM CODE PROVIDE HOT WATER AT ALL HOURS TO THE ENTIRE BUILDING', category: 'HEAT/HOT WATER', rentImpairing: true, weight: 2, inUnit: false },
  { order: '616', cls: 'C', text: 'SECTION 27-2056.6 ADM CODE - CORRECT THE LEAD-BASED PAINT HAZARD, PEELING PAINT, USING WORK PRACTICES SET FORTH IN 28 RCNY SECTION 11-06', category: 'PAINT/PLASTER', rentImpairing: false, weight: 3, inUnit: true },
  { order: '714', cls: 'C', text: 'SECTION 27-2045 ADM CODE REPAIR OR REPLACE THE SMOKE DETECTOR', category: 'SAFETY', rentImpairing: false, weight: 4, inUnit: true },
  { order: '715', cls: 'B', text: 'SECTION 27-2046.1 HMC: REPAIR OR REPLACE THE CARBON MONOXIDE DETECTING DEVICE', category: 'SAFETY', rentImpairing: false, weight: 3, inUnit: true },
  { order: '729', cls: 'C', text: 'SECTION 131.15 NYC HEALTH CODE PROVIDE WINDOW GUARDS AS REQUIRED', category: 'DOOR/WINDOW', rentImpairing: false, weight: 2, inUnit: true },
  { order: '530', cls: 'B', text: 'SECTION 27-2005 ADM CODE REPAIR THE BROKEN OR DEFECTIVE WINDOW SASH', category: 'DOOR/WINDOW', rentImpairing: false, weight: 4, inUnit: true },
  { order: '531', cls: 'B', text: 'SECTION 27-2005 ADM CODE REPAIR THE BROKEN OR DEFECTIVE DOOR', category: 'DOOR/WINDOW', rentImpairing: false, weight: 3, inUnit: true },
  { order: '526', cls: 'C', text: 'SECTION 27-2026 ADM CODE REPAIR THE DEFECTIVE ELECTRIC WIRING AND FIXTURES', category: 'ELECTRIC', rentImpairing: true, weight: 2, inUnit: true },
  { order: '686', cls: 'B', text: 'SECTION 27-2040 ADM CODE PROVIDE ADEQUATE LIGHTING AT OR NEAR THE OUTSIDE OF THE FRONT ENTRANCEWAY OF THE BUILDING', category: 'GENERAL', rentImpairing: false, weight: 2, inUnit: false },
  { order: '622', cls: 'B', text: 'SECTION 27-2005 ADM CODE REPAIR THE SELF-CLOSING DOOR AT THE PUBLIC HALL', category: 'DOOR/WINDOW', rentImpairing: false, weight: 2, inUnit: false },
  { order: '687', cls: 'A', text: 'SECTION 27-2046.2 HMC POST A PROPER NOTICE ABOUT THE CARBON MONOXIDE DETECTORS', category: 'GENERAL', rentImpairing: false, weight: 2, inUnit: false },
  { order: '704', cls: 'I', text: 'D26-41.03 ADM CODE FILE WITH THIS DEPARTMENT A REGISTRATION STATEMENT FOR BUILDING', category: 'GENERAL', rentImpairing: false, weight: 1, inUnit: false },
];

export interface ComplaintProblem {
  readonly major: string;
  readonly minor: string;
  readonly code: string;
  readonly type: 'EMERGENCY' | 'IMMEDIATE EMERGENCY' | 'NON EMERGENCY' | 'HAZARDOUS';
  readonly unitType: 'APARTMENT' | 'BUILDING-WIDE' | 'PUBLIC AREA';
  readonly spaceType: string;
  /** 311 complaint type and descriptor of the same problem */
  readonly nyc311Type: string;
  readonly nyc311Descriptor: string;
  readonly weight: number;
}

export const HEAT_PROBLEMS: readonly ComplaintProblem[] = [
  { major: 'HEAT/HOT WATER', minor: 'ENTIRE BUILDING', code: 'NO HEAT', type: 'IMMEDIATE EMERGENCY', unitType: 'BUILDING-WIDE', spaceType: 'BUILDING-WIDE', nyc311Type: 'HEAT/HOT WATER', nyc311Descriptor: 'ENTIRE BUILDING', weight: 5 },
  { major: 'HEAT/HOT WATER', minor: 'APARTMENT ONLY', code: 'NO HEAT', type: 'IMMEDIATE EMERGENCY', unitType: 'APARTMENT', spaceType: 'ENTIRE APARTMENT', nyc311Type: 'HEAT/HOT WATER', nyc311Descriptor: 'APARTMENT ONLY', weight: 3 },
];

export const HOT_WATER_PROBLEM: ComplaintProblem = { major: 'HEAT/HOT WATER', minor: 'ENTIRE BUILDING', code: 'NO HOT WATER', type: 'IMMEDIATE EMERGENCY', unitType: 'BUILDING-WIDE', spaceType: 'BUILDING-WIDE', nyc311Type: 'HEAT/HOT WATER', nyc311Descriptor: 'ENTIRE BUILDING', weight: 2 };

export const OTHER_PROBLEMS: readonly ComplaintProblem[] = [
  { major: 'WATER LEAK', minor: 'HEAVY FLOW', code: 'AT WALL OR CEILING', type: 'EMERGENCY', unitType: 'APARTMENT', spaceType: 'BATHROOM', nyc311Type: 'WATER LEAK', nyc311Descriptor: 'HEAVY FLOW', weight: 5 },
  { major: 'WATER LEAK', minor: 'SLOW LEAK', code: 'AT WALL OR CEILING', type: 'NON EMERGENCY', unitType: 'APARTMENT', spaceType: 'KITCHEN', nyc311Type: 'WATER LEAK', nyc311Descriptor: 'SLOW LEAK', weight: 6 },
  { major: 'PAINT/PLASTER', minor: 'CEILING', code: 'BROKEN PLASTER', type: 'NON EMERGENCY', unitType: 'APARTMENT', spaceType: 'BEDROOM', nyc311Type: 'PAINT/PLASTER', nyc311Descriptor: 'CEILING', weight: 8 },
  { major: 'PAINT/PLASTER', minor: 'WALLS', code: 'PEELING PAINT', type: 'NON EMERGENCY', unitType: 'APARTMENT', spaceType: 'LIVING ROOM', nyc311Type: 'PAINT/PLASTER', nyc311Descriptor: 'WALLS', weight: 6 },
  { major: 'UNSANITARY CONDITION', minor: 'PESTS', code: 'ROACHES', type: 'NON EMERGENCY', unitType: 'APARTMENT', spaceType: 'ENTIRE APARTMENT', nyc311Type: 'UNSANITARY CONDITION', nyc311Descriptor: 'PESTS', weight: 6 },
  { major: 'UNSANITARY CONDITION', minor: 'PESTS', code: 'MICE', type: 'NON EMERGENCY', unitType: 'APARTMENT', spaceType: 'ENTIRE APARTMENT', nyc311Type: 'UNSANITARY CONDITION', nyc311Descriptor: 'PESTS', weight: 5 },
  { major: 'UNSANITARY CONDITION', minor: 'MOLD', code: 'MOLD', type: 'NON EMERGENCY', unitType: 'APARTMENT', spaceType: 'BATHROOM', nyc311Type: 'UNSANITARY CONDITION', nyc311Descriptor: 'MOLD', weight: 4 },
  { major: 'PLUMBING', minor: 'WATER SUPPLY', code: 'LOW PRESSURE', type: 'NON EMERGENCY', unitType: 'APARTMENT', spaceType: 'KITCHEN', nyc311Type: 'PLUMBING', nyc311Descriptor: 'WATER SUPPLY', weight: 4 },
  { major: 'PLUMBING', minor: 'TOILET', code: 'DEFECTIVE', type: 'NON EMERGENCY', unitType: 'APARTMENT', spaceType: 'BATHROOM', nyc311Type: 'PLUMBING', nyc311Descriptor: 'TOILET', weight: 4 },
  { major: 'DOOR/WINDOW', minor: 'DOOR', code: 'BROKEN OR MISSING', type: 'EMERGENCY', unitType: 'APARTMENT', spaceType: 'ENTIRE APARTMENT', nyc311Type: 'DOOR/WINDOW', nyc311Descriptor: 'DOOR', weight: 4 },
  { major: 'DOOR/WINDOW', minor: 'WINDOW GUARD BROKEN OR MISSING', code: 'BROKEN OR MISSING', type: 'EMERGENCY', unitType: 'APARTMENT', spaceType: 'BEDROOM', nyc311Type: 'DOOR/WINDOW', nyc311Descriptor: 'WINDOW GUARD BROKEN OR MISSING', weight: 2 },
  { major: 'ELECTRIC', minor: 'POWER OUTAGE', code: 'ENTIRE APARTMENT', type: 'IMMEDIATE EMERGENCY', unitType: 'APARTMENT', spaceType: 'ENTIRE APARTMENT', nyc311Type: 'ELECTRIC', nyc311Descriptor: 'POWER OUTAGE', weight: 2 },
  { major: 'FLOORING/STAIRS', minor: 'FLOOR', code: 'TILE', type: 'NON EMERGENCY', unitType: 'APARTMENT', spaceType: 'KITCHEN', nyc311Type: 'FLOORING/STAIRS', nyc311Descriptor: 'FLOOR', weight: 4 },
  { major: 'SAFETY', minor: 'SMOKE DETECTOR', code: 'MISSING', type: 'HAZARDOUS', unitType: 'APARTMENT', spaceType: 'ENTIRE APARTMENT', nyc311Type: 'SAFETY', nyc311Descriptor: 'SMOKE DETECTOR', weight: 2 },
  { major: 'ELEVATOR', minor: 'ELEVATOR', code: 'NOT WORKING', type: 'EMERGENCY', unitType: 'BUILDING-WIDE', spaceType: 'BUILDING-WIDE', nyc311Type: 'ELEVATOR', nyc311Descriptor: 'ELEVATOR', weight: 1 },
  { major: 'GENERAL', minor: 'BELL/BUZZER/INTERCOM', code: 'DEFECTIVE', type: 'NON EMERGENCY', unitType: 'PUBLIC AREA', spaceType: 'HALLWAY', nyc311Type: 'GENERAL', nyc311Descriptor: 'BELL/BUZZER/INTERCOM', weight: 3 },
  { major: 'APPLIANCE', minor: 'REFRIGERATOR', code: 'DEFECTIVE', type: 'NON EMERGENCY', unitType: 'APARTMENT', spaceType: 'KITCHEN', nyc311Type: 'APPLIANCE', nyc311Descriptor: 'REFRIGERATOR', weight: 2 },
];

/** 311 requests handled by other agencies (DOB, DOHMH) on residential buildings. */
export const OTHER_311: readonly (readonly [string, string, string, string, number])[] = [
  ['DOB', 'Department of Buildings', 'General Construction/Plumbing', 'Plumbing-Defective/Leaking', 3],
  ['DOB', 'Department of Buildings', 'Building/Use', 'Illegal Conversion Of Residential Building/Space', 2],
  ['DOB', 'Department of Buildings', 'Elevator', 'Elevator - Defective/Not Working', 1],
  ['DOB', 'Department of Buildings', 'Boilers', 'Boiler - Defective/Inoperative/No Permit', 1],
  ['DOHMH', 'Department of Health and Mental Hygiene', 'Rodent', 'Rat Sighting', 4],
  ['DOHMH', 'Department of Health and Mental Hygiene', 'Indoor Air Quality', 'Mold', 1],
];

export const CLOSED_WITH_VIOLATION = 'The Department of Housing Preservation and Development inspected the following conditions. Violations were issued. Information about specific violations is available at www.nyc.gov/hpd.';
export const CLOSED_NO_VIOLATION = 'The Department of Housing Preservation and Development inspected the following conditions. No violations were issued. The complaint has been closed.';
export const CLOSED_NO_ACCESS = 'The Department of Housing Preservation and Development was not able to gain access to inspect the following conditions. The complaint has been closed. If the condition still exists, please file a new complaint.';
export const OPEN_DESCRIPTION = 'The following complaint conditions are still open. HPD may attempt to contact you to verify the correction of the condition or may conduct an inspection.';
export const HEAT_RESTORED = 'The Department of Housing Preservation and Development contacted a tenant in the building and verified that the following conditions were corrected. The complaint has been closed.';

/** DOB complaint categories (2-character codes). */
export const DOB_COMPLAINT_CATEGORIES: readonly (readonly [string, string, number])[] = [
  ['05', 'PERMIT - NONE (BUILDING/PA/DEMO ETC.)', 6],
  ['45', 'ILLEGAL CONVERSION', 5],
  ['31', 'CERTIFICATE OF OCCUPANCY - NONE/ILLEGAL/CONTRARY TO CO', 3],
  ['23', 'SIDEWALK SHED/SUPPORTED SCAFFOLD/INADEQUATE/DEFECTIVE/NONE/NO PERMIT/NO CERT', 2],
  ['6S', 'ELEVATOR - DANGEROUS CONDITION/SHAFT OPEN/UNGUARDED', 1],
  ['63', 'ELEVATOR - DEFECTIVE/INOPERATIVE', 2],
  ['56', 'BOILER - FUMES/SMOKE/CARBON MONOXIDE', 1],
  ['30', 'BUILDING SHAKING/VIBRATING/STRUCTURAL STABILITY AFFECTED', 1],
  ['71', 'SRO - ILLEGAL WORK/NO PERMIT/CHANGE IN OCCUPANCY/USE', 1],
  ['73', 'FAILURE TO MAINTAIN', 3],
  ['83', 'CONSTRUCTION - CONTRARY/BEYOND APPROVED PLANS/PERMITS', 2],
  ['1D', 'CON ED REFERRAL', 1],
  ['4B', 'SEP - PROFESSIONAL CERTIFICATION COMPLIANCE AUDIT', 1],
  ['59', 'ELECTRICAL WIRING DEFECTIVE/EXPOSED, IN PROGRESS', 1],
  ['RE', 'EGRESS - LOCKED/BLOCKED/IMPROPER/NO SECONDARY MEANS', 1],
];

export const DOB_VIOLATION_TYPES: readonly (readonly [string, string, string])[] = [
  ['E', 'E-ELEVATOR', 'ELEVATOR'],
  ['LL6291', 'LL6291-LOCAL LAW 62/91 - BOILERS', 'BOILER'],
  ['LBLVIO', 'LBLVIO-LOW PRESSURE BOILER', 'BOILER'],
  ['LL1080', 'LL1080-LOCAL LAW 10/80 - FACADE', 'FACADE'],
  ['AEUHAZ1', 'AEUHAZ1-FAIL TO CERTIFY CLASS 1', 'ECB'],
  ['ACC1', 'ACC1-IMMEDIATELY HAZARDOUS', 'ECB'],
  ['C', 'C-CONSTRUCTION', 'CONSTRUCTION'],
];

export const ECB_INFRACTIONS: readonly (readonly [string, string, string, string])[] = [
  ['B25', '27-201', 'WORK WITHOUT A PERMIT', 'Construction'],
  ['151', '28-301.1', 'FAILURE TO MAINTAIN BUILDING IN CODE COMPLIANT MANNER', 'Construction'],
  ['BP7', '27-987', 'FAILURE TO MAINTAIN ELEVATOR', 'Elevators'],
  ['263', 'AC 28-204.4', 'FAIL TO COMPLY W/COMMISSIONER ORDER TO FILE CERT OF CORRECTION W/DOB', 'Unknown'],
  ['B56', '28-105.1', 'WORK WITHOUT A PERMIT: OCCUPANCY CONTRARY TO CO', 'Construction'],
  ['LL6', '28-302.1', 'FAILURE TO MAINTAIN EXTERIOR WALLS', 'Local Law'],
  ['B42', '27-127', 'FAILURE TO MAINTAIN BUILDING', 'Construction'],
];

export const JOB_DESCRIPTIONS: readonly string[] = [
  'INTERIOR RENOVATION OF EXISTING APARTMENT. NO CHANGE IN USE, EGRESS OR OCCUPANCY.',
  'REPLACEMENT OF EXISTING BOILER AND BURNER. NO CHANGE IN USE, EGRESS OR OCCUPANCY.',
  'FACADE REPAIRS AS PER FISP REPORT, INSTALLATION OF SIDEWALK SHED.',
  'ROOF REPLACEMENT AND PARAPET REPAIRS.',
  'PLUMBING WORK IN CONJUNCTION WITH KITCHEN AND BATHROOM RENOVATION.',
  'ELEVATOR MODERNIZATION.',
  'FILING HEREWITH TAX ABATEMENT APPLICATION FOR INSTALLATION OF ROOF MOUNTED SOLAR PANELS. NO CHANGE IN USE, EGRESS OR OCCUPANCY.',
  'GAS PIPING REPLACEMENT FOR APARTMENTS AND BOILER ROOM.',
  'WINDOW REPLACEMENT THROUGHOUT BUILDING.',
];

export const REPAIR_WORK: readonly (readonly [string, string])[] = [
  ['GC', 'repair defective plaster and paint at bedroom ceiling and walls, at the time of this'],
  ['PLUMB', 'trace and repair all leaks effecting the apartment below to include resetting water closet, repairing leaks at face basin'],
  ['HEAT', 'provide and install temporary heating equipment, restore heat and hot water to the entire building'],
  ['DELEAD', 'as per hpd lead abatement requirement contracts and attached scope of work thoroughly remove all lead violations'],
  ['ELEC', 'make safe exposed wiring at public hall ceiling, replace defective fixtures'],
  ['7AFA', 'apt bathroom: remove mold from walls and ceiling, trace the source of the leak and repair'],
  ['GC', 'install missing window guards and stops and screws as per nyc health code'],
  ['ASBEST', 'perform asbestos investigation in accordance with title 15, chapter 1, rules of the city of new york'],
];
