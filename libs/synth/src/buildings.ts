import { formatBbl, type BoroughCode } from '@bhis/domain';
import { BOROUGHS, streetCodeOf, streetOfBlock, zoneOfBlock, type BoroughGeography, type Zone } from './geography';
import { corporateOwner, corporatePoolSize, drawCorporateOwnerId, individualOwner, publicHousingOwner, type Owner } from './owners';
import { hashUnit, Rng, Stream } from './rng';

export type SizeClass = 'one_two' | 'mixed' | 'small_mf' | 'walkup' | 'elevator' | 'big' | 'condo';

/** The facts of one tax lot: what PLUTO, HPD jurisdiction and every address column show. */
export interface Building {
  readonly index: number;
  /** false for the non-habitational lots that PLUTO lists and the service must count as out of scope */
  readonly habitational: boolean;
  readonly borough: BoroughGeography;
  readonly zone: Zone;
  readonly block: number;
  readonly lot: number;
  readonly bbl: string;
  /** one BIN per building on the lot (several on some lots) */
  readonly bins: readonly string[];
  /** HPD BuildingID per BIN */
  readonly hpdBuildingIds: readonly number[];
  readonly registrationId: number;
  readonly houseNumber: string;
  readonly lowHouseNumber: string;
  readonly highHouseNumber: string;
  readonly street: string;
  readonly streetCode: string;
  readonly zip: string;
  readonly censusTract: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly sizeClass: SizeClass;
  readonly buildingClass: string;
  readonly landUse: string;
  readonly units: number;
  readonly unitsTotal: number;
  readonly stories: number;
  readonly yearBuilt: number;
  readonly lotArea: number;
  readonly buildingArea: number;
  readonly commercialArea: number;
  readonly isCondo: boolean;
  /** subject to HPD jurisdiction (multiple dwellings and some others) */
  readonly hpdJurisdiction: boolean;
  /**
   * Public housing (isPublicHousingLot): listed under HPD jurisdiction with ManagementProgram NYCHA and
   * owned by the housing authority, but never registered with HPD, and HPD neither inspects nor enforces
   * there: no HPD complaints, violations, litigation, emergency repairs, programs or vacate orders.
   */
  readonly publicHousing: boolean;
  readonly owner: Owner;
  /**
   * 311 reporting propensity (1 = city average): lower in poorer neighbourhoods, which under-report
   * (fewer complaints per actual problem), times a zone and a building draw.
   */
  readonly reporting: number;
  /** HPD proactive inspection intensity of the zone (borough offices differ), 1 = city average */
  readonly inspection: number;
  /** neighbourhood disadvantage on the latent logit scale */
  readonly neighbourhood: number;
}

/** Slot layout: P slots spread over the boroughs by their share; index -> (slot, round) is a bijection. */
const SLOTS = 10007;
const SLOT_STEP = 6151;
const boroughSlotStart: number[] = [];
const boroughSlotCount: number[] = [];
{
  let start = 0;
  BOROUGHS.forEach((b, i) => {
    const count = i === BOROUGHS.length - 1 ? SLOTS - start : Math.round(SLOTS * b.share);
    boroughSlotStart.push(start);
    boroughSlotCount.push(count);
    start += count;
  });
}

interface LotPlace {
  readonly borough: BoroughGeography;
  readonly block: number;
  readonly round: number;
  /** unique within the borough: drives BINs */
  readonly ordinal: number;
}

/** Where lot `index` sits: a unique (borough, block, round) for every index. */
export function placeOf(index: number): LotPlace {
  const slot = (index * SLOT_STEP + 17) % SLOTS;
  const round = Math.floor(index / SLOTS);
  let b = 0;
  while (b < BOROUGHS.length - 1 && slot >= boroughSlotStart[b + 1]) b++;
  const j = slot - boroughSlotStart[b];
  const borough = BOROUGHS[b];
  const count = boroughSlotCount[b];
  const blocks = borough.blockMax - borough.blockMin + 1;
  const width = Math.floor(blocks / count);
  const block = borough.blockMin + Math.floor((j * blocks) / count) + Math.floor(hashUnit(j, b, 3) * width);
  return { borough, block: Math.min(borough.blockMax, block), round, ordinal: round * count + j };
}

const SIZE_WEIGHTS: Readonly<Record<BoroughCode, readonly (readonly [SizeClass, number])[]>> = {
  1: [['one_two', 0.05], ['mixed', 0.12], ['small_mf', 0.08], ['walkup', 0.42], ['elevator', 0.2], ['big', 0.015], ['condo', 0.115]],
  2: [['one_two', 0.38], ['mixed', 0.07], ['small_mf', 0.2], ['walkup', 0.22], ['elevator', 0.1], ['big', 0.004], ['condo', 0.026]],
  3: [['one_two', 0.52], ['mixed', 0.08], ['small_mf', 0.23], ['walkup', 0.12], ['elevator', 0.02], ['big', 0.0015], ['condo', 0.0285]],
  4: [['one_two', 0.7], ['mixed', 0.05], ['small_mf', 0.13], ['walkup', 0.05], ['elevator', 0.03], ['big', 0.0015], ['condo', 0.0385]],
  5: [['one_two', 0.89], ['mixed', 0.03], ['small_mf', 0.05], ['walkup', 0.01], ['elevator', 0.005], ['big', 0.0005], ['condo', 0.0145]],
};

function unitsFor(rng: Rng, size: SizeClass): number {
  switch (size) {
    case 'one_two':
      return rng.chance(0.55) ? 1 : 2;
    case 'mixed':
      return rng.int(1, 6);
    case 'small_mf':
      return rng.int(3, 5);
    case 'walkup':
      return Math.min(60, 6 + Math.round(rng.logNormal(10, 0.6)));
    case 'elevator':
      return Math.max(20, Math.min(499, Math.round(rng.logNormal(70, 0.7))));
    case 'big':
      return Math.min(3000, Math.round(500 * Math.pow(1 - rng.float(), -0.6)));
    case 'condo':
      return Math.max(6, Math.min(600, Math.round(rng.logNormal(25, 0.9))));
  }
}

function buildingClassFor(rng: Rng, size: SizeClass, units: number): string {
  switch (size) {
    case 'one_two':
      return units === 1 ? rng.pick(['A1', 'A2', 'A5', 'A9']) : rng.pick(['B1', 'B2', 'B3', 'B9']);
    case 'mixed':
      return units >= 5 ? 'S5' : units === 1 ? 'S1' : `S${units}`;
    case 'small_mf':
      return units === 3 ? 'C0' : rng.pick(['C2', 'C3', 'C1']);
    case 'walkup':
      return rng.pick(['C1', 'C4', 'C5', 'C6', 'C7', 'C1', 'C4']);
    case 'elevator':
    case 'big':
      return rng.pick(['D1', 'D4', 'D6', 'D7', 'D3', 'D5', 'D9', 'D1']);
    case 'condo':
      return rng.pick(['R4', 'R4', 'R2', 'RR']);
  }
}

function storiesFor(rng: Rng, size: SizeClass, units: number): number {
  switch (size) {
    case 'one_two':
      return rng.int(1, 3);
    case 'mixed':
      return rng.int(2, 4);
    case 'small_mf':
      return rng.int(2, 4);
    case 'walkup':
      return rng.int(3, 6);
    case 'elevator':
      return Math.min(45, Math.max(6, Math.round(units / rng.int(6, 12))));
    case 'big':
      return rng.int(12, 40);
    case 'condo':
      return Math.min(60, Math.max(3, Math.round(units / rng.int(4, 10))));
  }
}

function yearBuiltFor(rng: Rng, size: SizeClass, borough: BoroughCode): number {
  const prewar = size === 'walkup' ? 0.8 : size === 'small_mf' || size === 'mixed' ? 0.6 : size === 'elevator' ? 0.45 : size === 'condo' ? 0.1 : size === 'big' ? 0.15 : borough === 5 ? 0.15 : 0.4;
  const u = rng.float();
  if (u < prewar) return rng.int(1880, 1939);
  if (u < prewar + (1 - prewar) * 0.6) return rng.int(1940, 1979);
  return rng.int(1980, 2022);
}

function houseNumberFor(borough: BoroughGeography, block: number, lot: number): string {
  if (borough.hyphenatedHouseNumbers) {
    const first = 1 + (block % 270);
    return `${first}-${String(((lot * 2) % 98) + 1).padStart(2, '0')}`;
  }
  const base = 1 + ((block * 37) % 40) * 20;
  return String(base + lot * 2);
}

/** The buildings on a lot (most lots hold one; a few complexes several), their BINs and HPD building ids. */
function buildingsOnLot(rng: Rng, size: SizeClass, boroughCode: number, ordinal: number, index: number): { bins: string[]; hpdBuildingIds: number[] } {
  const manyBuildings = (size === 'elevator' || size === 'big') && rng.chance(0.04) ? rng.int(2, 8) : size === 'one_two' && rng.chance(0.02) ? 2 : 1;
  const bins: string[] = [];
  const hpdBuildingIds: number[] = [];
  for (let k = 0; k < manyBuildings && k < 3; k++) {
    bins.push(String(boroughCode * 1_000_000 + 1 + ordinal * 3 + k));
    hpdBuildingIds.push(1000 + index * 3 + k);
  }
  return { bins, hpdBuildingIds };
}

/** The owner: corporate owners hold most larger buildings, individuals most one- and two-family homes. */
function ownerOf(rng: Rng, seed: number, size: SizeClass, habitableCount: number, index: number): Building['owner'] {
  const corporateShare = size === 'one_two' ? 0.04 : size === 'mixed' || size === 'small_mf' ? 0.3 : 0.85;
  return rng.chance(corporateShare)
    ? corporateOwner(seed, drawCorporateOwnerId(rng, corporatePoolSize(habitableCount)))
    : individualOwner(rng, corporatePoolSize(habitableCount) + index);
}

/** Public housing is drawn among the large rental lots (walk-up, elevator and big buildings, not condos) of this many units or more. */
export const PUBLIC_HOUSING_MIN_UNITS = 50;
/** Share of those lots that are public housing. */
export const PUBLIC_HOUSING_SHARE = 0.02;
/** Tag of the lot's public housing draw (a hash: it consumes nothing from the lot's stream, so no other draw moves). */
const PUBLIC_HOUSING_DRAW = 13;

/** Whether a lot is public housing: a pure function of (seed, index) among the large rental lots. */
export function isPublicHousingLot(seed: number, index: number, size: SizeClass, units: number): boolean {
  if (size !== 'walkup' && size !== 'elevator' && size !== 'big') return false;
  return units >= PUBLIC_HOUSING_MIN_UNITS && hashUnit(seed, Stream.building, index, PUBLIC_HOUSING_DRAW) < PUBLIC_HOUSING_SHARE;
}

/** What a building shares with its zone: how disadvantaged it is, how much it reports, how often it is inspected. */
function zoneFactors(seed: number, boroughCode: number, zoneIndex: number): { neighbourhood: number; zoneReporting: number; inspection: number } {
  const neighbourhood = (hashUnit(seed, Stream.zone, boroughCode, zoneIndex, 2) - 0.5) * 1.4 + (boroughCode === 2 ? 0.35 : boroughCode === 5 ? -0.3 : 0);
  // disadvantage (low income) lowers the propensity to report
  const zoneReporting = Math.exp((hashUnit(seed, Stream.zone, boroughCode, zoneIndex) - 0.5) * 0.8 - 0.9 * neighbourhood);
  const inspection = Math.exp((hashUnit(seed, Stream.zone, boroughCode, zoneIndex, 3) - 0.5) * 1.0);
  return { neighbourhood, zoneReporting, inspection };
}

/** The lot that `index` names, a pure function of (seed, index). */
export function buildingAt(seed: number, index: number, habitableCount: number): Building {
  const rng = new Rng(seed, Stream.building, index);
  const place = placeOf(index);
  const { borough, block } = place;
  const habitational = index < habitableCount;
  const zone = zoneOfBlock(borough, block);

  const size: SizeClass = habitational ? rng.weighted(SIZE_WEIGHTS[borough.code]) : 'elevator';
  const isCondo = habitational && size === 'condo' && rng.chance(0.7);
  const lot = isCondo ? 7501 + place.round : 1 + place.round * 4 + Math.floor(hashUnit(seed, index, 11) * 4);
  const bbl = formatBbl(borough.code, block, lot);
  if (bbl === null) throw new Error(`generated an invalid BBL for lot ${index}`);

  const units = habitational ? unitsFor(rng, size) : 0;
  const buildingClass = habitational ? buildingClassFor(rng, size, units) : rng.pick(['K1', 'K4', 'O4', 'O6', 'G1', 'F5', 'E1', 'W2', 'M1', 'Q1']);
  const stories = habitational ? storiesFor(rng, size, units) : rng.int(1, 12);
  const yearBuilt = yearBuiltFor(rng, size, borough.code);

  const { bins, hpdBuildingIds } = buildingsOnLot(rng, size, borough.code, place.ordinal, index);

  const street = streetOfBlock(borough, block);
  const houseNumber = houseNumberFor(borough, block, lot);
  const ranged = units >= 20 && !borough.hyphenatedHouseNumbers && rng.chance(0.3);
  const low = ranged ? String(Number(houseNumber) - 2) : houseNumber;

  const publicHousing = habitational && isPublicHousingLot(seed, index, size, units);
  // the private owner is drawn in any case, so the lot's later draws are the same with or without public housing
  const privateOwner = ownerOf(rng, seed, size, habitableCount, index);
  const owner = publicHousing ? publicHousingOwner() : privateOwner;
  const { neighbourhood, zoneReporting, inspection } = zoneFactors(seed, borough.code, zone.index);
  const unitArea = size === 'one_two' ? rng.int(700, 1400) : rng.int(650, 1000);
  const resArea = units * unitArea;
  const commercialArea = size === 'mixed' || buildingClass === 'D6' || buildingClass === 'C7' ? rng.int(800, 6000) : habitational ? 0 : rng.int(2000, 80000);
  const hpdJurisdiction = habitational && (units >= 3 || (units === 2 && rng.chance(0.3)) || rng.chance(0.05));

  return {
    index,
    habitational,
    borough,
    zone,
    block,
    lot,
    bbl,
    bins,
    hpdBuildingIds,
    registrationId: 100000 + index,
    houseNumber,
    lowHouseNumber: low,
    highHouseNumber: houseNumber,
    street,
    streetCode: streetCodeOf(borough.code, street),
    zip: String(zone.zip),
    censusTract: String(1 + ((block * 7) % 1200)),
    latitude: zone.latMin + rng.float() * (zone.latMax - zone.latMin),
    longitude: zone.lonMin + rng.float() * (zone.lonMax - zone.lonMin),
    sizeClass: size,
    buildingClass,
    landUse: !habitational ? rng.pick(['5', '6', '8', '10']) : size === 'one_two' ? '1' : size === 'mixed' ? '4' : units <= 5 ? '2' : '3',
    units,
    unitsTotal: units + (commercialArea > 0 ? rng.int(1, 3) : 0),
    stories,
    yearBuilt,
    lotArea: Math.max(1200, Math.round((resArea + commercialArea) / Math.max(1, stories) * (1 + rng.float()))),
    buildingArea: resArea + commercialArea,
    commercialArea,
    isCondo,
    hpdJurisdiction,
    publicHousing,
    owner,
    reporting: zoneReporting * rng.logNormal(1, 0.3),
    inspection,
    neighbourhood,
  };
}
