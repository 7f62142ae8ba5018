import type { Building } from '../buildings';
import { CORPORATE_WORDS, FIRST_NAMES, SURNAMES } from '../names';
import type { Owner } from '../owners';
import { hashInts } from '../rng';

/**
 * How registrations name the people and companies behind a building, as real ones do: every building
 * of a portfolio is held by an LLC of its own (named after its address), the owner's head officer and
 * office are the same on all of them but spelt a little differently from one filing to the next, and
 * many owners hire one of a few large management companies, named as agent and site manager. The
 * spellings are hashes of the registration: they change how a record is written, never which records exist.
 */

/** Spellings of one street type that registrations use (HPD's own contact rows write DELAVAN STREET and DELAVEN ST for one office). */
const STREET_TYPE_SPELLINGS: Record<string, readonly string[]> = {
  STREET: ['STREET', 'ST', 'ST.', 'STR'],
  AVENUE: ['AVENUE', 'AVE', 'AVE.', 'AV'],
  BOULEVARD: ['BOULEVARD', 'BLVD', 'BLVD.'],
  ROAD: ['ROAD', 'RD'],
  PLACE: ['PLACE', 'PL'],
};
const CITY_SPELLINGS: Record<string, readonly string[]> = {
  BROOKLYN: ['BROOKLYN', 'BKLYN', 'Brooklyn'],
  'NEW YORK': ['NEW YORK', 'NY', 'MANHATTAN', 'New York'],
  BRONX: ['BRONX', 'BX', 'Bronx'],
  'STATEN ISLAND': ['STATEN ISLAND', 'SI'],
};
const LLC_FORMS = ['LLC', 'L.L.C.', 'REALTY LLC', 'OWNER LLC', 'HOLDINGS LLC', 'ASSOCIATES LLC', 'EQUITIES LLC'];
const MANAGEMENT_FORMS = ['MANAGEMENT CORP', 'PROPERTY MANAGEMENT LLC', 'MGMT INC', 'REAL ESTATE SERVICES LLC'];
/** Offices of the management companies: streets no owner's office is on. */
const MANAGEMENT_OFFICES: readonly (readonly [string, string, string])[] = [
  ['WEST 57 STREET', 'NEW YORK', '10019'], ['JERICHO TURNPIKE', 'SYOSSET', '11791'], ['QUEENS BOULEVARD', 'REGO PARK', '11374'],
  ['EAST TREMONT AVENUE', 'BRONX', '10460'], ['KINGS HIGHWAY', 'BROOKLYN', '11229'], ['LEXINGTON AVENUE', 'NEW YORK', '10017'],
];

/** Tags of the spelling draws, one per choice. */
const Draw = { llcForm: 1, ownName: 2, street: 3, city: 4, first: 5, initial: 6, managed: 7, company: 8, caseStyle: 9 } as const;

function pick<T>(values: readonly T[], ...key: number[]): T {
  return values[hashInts(...key) % values.length] as T;
}

/** `5 AVENUE` spelt as one registration spells it: `5 AVE.`, `FIFTH AVENUE`... */
function streetSpelling(street: string, key: number): string {
  const words = street.split(' ');
  const last = words[words.length - 1] ?? '';
  const types = STREET_TYPE_SPELLINGS[last];
  if (types) words[words.length - 1] = pick(types, key, Draw.street);
  if (words[0] === '5' && hashInts(key, Draw.street, 2) % 3 === 0) words[0] = pick(['FIFTH', '5TH'], key, Draw.street, 3);
  return words.join(' ');
}

function titleCase(text: string): string {
  return text.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

/** The LLC a building is held by: most after the building's address, some under the owner's own name. */
export function holdingCompany(b: Building): string {
  const owner = b.owner;
  if (hashInts(b.registrationId, Draw.ownName) % 5 === 0) return owner.name;
  const street = b.street.replace(/^(EAST|WEST|NORTH|SOUTH) /, (d) => `${d[0]} `);
  return `${b.houseNumber} ${street} ${pick(LLC_FORMS, b.registrationId, Draw.llcForm)}`;
}

export interface BusinessAddressFields {
  BusinessHouseNumber: string;
  BusinessStreetName: string;
  BusinessCity: string;
  BusinessState: string;
  BusinessZip: string;
}

/** The owner's office as this registration spells it. */
export function ownerOffice(owner: Owner, registrationId: number): BusinessAddressFields {
  const city = CITY_SPELLINGS[owner.businessCity];
  return {
    BusinessHouseNumber: owner.businessHouseNumber,
    BusinessStreetName: streetSpelling(owner.businessStreet, registrationId),
    BusinessCity: city ? pick(city, registrationId, Draw.city) : owner.businessCity,
    BusinessState: 'NY',
    BusinessZip: owner.businessZip,
  };
}

/** The owner's head officer as this registration spells them: a middle initial some times, mixed case some times. */
export function headOfficer(owner: Owner, registrationId: number): { FirstName: string; MiddleInitial: string; LastName: string } {
  const initial = String.fromCharCode(65 + (hashInts(owner.id, Draw.initial) % 26));
  const style = hashInts(registrationId, Draw.caseStyle) % 4;
  const first = style === 0 ? titleCase(owner.officerFirst) : owner.officerFirst;
  const last = style === 0 ? titleCase(owner.officerLast) : owner.officerLast;
  return { FirstName: first, MiddleInitial: hashInts(registrationId, Draw.first) % 3 === 0 ? initial : '', LastName: last };
}

/** Management companies of a city with `owners` corporate owners: few, each managing for many unrelated owners. */
export function managementCompanyCount(owners: number): number {
  return Math.max(3, Math.ceil(owners / 25));
}

export interface ManagementCompany {
  name: string;
  officerFirst: string;
  officerLast: string;
  office: BusinessAddressFields;
}

/** The management company that manages this building, if the owner hires one (about half do). */
export function managementCompanyOf(b: Building, owners: number): ManagementCompany | null {
  if (b.owner.kind !== 'corporate' || hashInts(b.owner.id, Draw.managed) % 2 === 0) return null;
  // an owner hires one company for all its buildings; companies' sizes are heavy-tailed like owners'
  const u = (hashInts(b.owner.id, Draw.company) % 10_000) / 10_000;
  const id = Math.floor(managementCompanyCount(owners) * u * u);
  const office = pick(MANAGEMENT_OFFICES, id);
  return {
    name: `${pick(CORPORATE_WORDS, id, Draw.company, 1)} ${pick(MANAGEMENT_FORMS, id, Draw.company, 2)}`,
    officerFirst: pick(FIRST_NAMES, id, Draw.company, 3),
    officerLast: pick(SURNAMES, id, Draw.company, 4),
    office: { BusinessHouseNumber: String(100 + (id * 37) % 900), BusinessStreetName: office[0], BusinessCity: office[1], BusinessState: 'NY', BusinessZip: office[2] },
  };
}
