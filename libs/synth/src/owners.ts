import { CORPORATE_SUFFIXES, CORPORATE_WORDS, FIRST_NAMES, NICKNAMES, SURNAMES } from './names';
import { hashInts, hashUnit, Rng, Stream } from './rng';

/** `public`: the city's public housing authority (see publicHousingOwner). */
export type OwnerKind = 'individual' | 'corporate' | 'public';

export interface Owner {
  readonly id: number;
  readonly kind: OwnerKind;
  /** as PLUTO and the registration contacts spell it (may hold commas and quotes) */
  readonly name: string;
  /** officer shared by all the owner's registrations: the link that reveals a portfolio */
  readonly officerFirst: string;
  readonly officerLast: string;
  /** latent effect on the owner's buildings: > 0 worse, < 0 better */
  readonly badness: number;
  readonly businessHouseNumber: string;
  readonly businessStreet: string;
  readonly businessCity: string;
  readonly businessZip: string;
}

const BUSINESS_ADDRESSES: readonly (readonly [string, string, string])[] = [
  ['BROADWAY', 'NEW YORK', '10001'], ['5 AVENUE', 'NEW YORK', '10016'], ['DELAVAN STREET', 'BROOKLYN', '11231'],
  ['CONEY ISLAND AVENUE', 'BROOKLYN', '11230'], ['NORTHERN BOULEVARD', 'FLUSHING', '11354'], ['GRAND CONCOURSE', 'BRONX', '10451'],
  ['MADISON AVENUE', 'NEW YORK', '10022'], ['AUSTIN STREET', 'FOREST HILLS', '11375'], ['HYLAN BOULEVARD', 'STATEN ISLAND', '10306'],
  ['ROUTE 59', 'MONSEY', '10952'], ['OLD COUNTRY ROAD', 'MINEOLA', '11501'],
];

/** Number of corporate owners for a city of `buildings` habitational lots. */
export function corporatePoolSize(buildings: number): number {
  return Math.max(12, Math.floor(buildings * 0.06));
}

/**
 * Portfolio owner of a building: a heavy-tailed draw (u^2.3) over the corporate pool, so a few owners
 * hold hundreds of buildings while most hold one or two.
 */
export function drawCorporateOwnerId(rng: Rng, poolSize: number): number {
  return Math.floor(poolSize * Math.pow(rng.float(), 2.3));
}

function ownerBadness(seed: number, id: number): number {
  const u = hashUnit(seed, Stream.owner, id, 1);
  if (u < 0.1) return 1 + hashUnit(seed, Stream.owner, id, 2) * 0.8; // the bad landlords
  if (u < 0.3) return -0.5;
  return (hashUnit(seed, Stream.owner, id, 3) - 0.5) * 0.6;
}

/** A corporate owner, a pure function of (seed, owner id). */
export function corporateOwner(seed: number, id: number): Owner {
  const h = hashInts(seed, Stream.owner, id, 9);
  const word = CORPORATE_WORDS[h % CORPORATE_WORDS.length];
  const suffix = CORPORATE_SUFFIXES[(h >>> 8) % CORPORATE_SUFFIXES.length];
  const style = (h >>> 16) % 20;
  let name: string;
  if (style < 8) name = `${word} ${suffix}`;
  else if (style < 13) name = `${100 + ((h >>> 5) % 3900)} ${word} ${suffix}`;
  else if (style < 17) name = `${word} ${CORPORATE_WORDS[(h >>> 11) % CORPORATE_WORDS.length]} ${suffix}`;
  else if (style < 19) name = `${word} REALTY, LLC`; // a comma inside a quoted CSV field
  else name = `THE "${word}" GROUP, INC`; // quotes doubled in CSV
  const address = BUSINESS_ADDRESSES[(h >>> 3) % BUSINESS_ADDRESSES.length];
  return {
    id,
    kind: 'corporate',
    name: `${name}${id > 0 && style < 8 ? ` ${romanSuffix(id)}` : ''}`.trim(),
    officerFirst: FIRST_NAMES[(h >>> 7) % FIRST_NAMES.length],
    officerLast: SURNAMES[(h >>> 13) % SURNAMES.length],
    badness: ownerBadness(seed, id),
    // distinct for the first 9,973 owners (7,919 and 9,973 are coprime): unrelated owners share an office only in a very large city
    businessHouseNumber: String(1 + ((id * 7919) % 9973)),
    businessStreet: address[0],
    businessCity: address[1],
    businessZip: address[2],
  };
}

function romanSuffix(id: number): string {
  const n = id % 7;
  return ['', 'I', 'II', 'III', 'IV', 'V', 'VI'][n];
}

/** PLUTO owner name of every public housing lot. */
export const PUBLIC_HOUSING_OWNER_NAME = 'NEW YORK CITY HOUSING AUTHORITY';
/** Owner id of the housing authority in truth.csv: outside the corporate and individual id ranges (0 and up). */
export const PUBLIC_HOUSING_OWNER_ID = -1;

/**
 * The owner of every public housing lot: one city-wide landlord, with no HPD registration (so no
 * officer or business address on file) and a large, long-standing repair backlog (badness above
 * most private owners', below the worst landlords').
 */
export function publicHousingOwner(): Owner {
  return {
    id: PUBLIC_HOUSING_OWNER_ID,
    kind: 'public',
    name: PUBLIC_HOUSING_OWNER_NAME,
    officerFirst: '',
    officerLast: '',
    badness: 0.6,
    businessHouseNumber: '',
    businessStreet: '',
    businessCity: '',
    businessZip: '',
  };
}

/** An individual owner (homeowner or small landlord) drawn from the building's own stream. */
export function individualOwner(rng: Rng, id: number): Owner {
  const last = rng.pick(SURNAMES);
  const first = rng.pick(FIRST_NAMES);
  const initial = rng.chance(0.5) ? ` ${String.fromCharCode(65 + rng.int(0, 25))}` : '';
  const nickname = rng.chance(0.02) ? ` "${rng.pick(NICKNAMES)}"` : '';
  const u = rng.float();
  return {
    id,
    kind: 'individual',
    name: `${last}, ${first}${initial}${nickname}`,
    officerFirst: first,
    officerLast: last,
    badness: u < 0.06 ? 0.8 + rng.float() * 0.6 : (rng.float() - 0.6) * 0.6,
    businessHouseNumber: '',
    businessStreet: '',
    businessCity: '',
    businessZip: '',
  };
}
