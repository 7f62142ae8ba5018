import { normalizeAddress } from '@bhis/domain';
import { buildingAt } from '@bhis/synth';

/** The seed of the benchmark city (data-setup.ts): the same lots, streets and owners as `bhis synth --seed 1`. */
export const SEARCH_CITY_SEED = 1;

/** One building row of a search city: what the search reads of a building. */
export interface SearchCityBuilding {
  bbl: string;
  borough: number;
  block: number;
  lot: number;
  houseNumber: string;
  street: string;
  address: string;
  addressSearch: string;
  zipcode: string;
  units: number;
  buildingClass: string;
  owner: string;
}

/**
 * The first `count` lots of the synthetic city (libs/synth: its streets, house numbers, boroughs,
 * ZIP Codes and owners). A smaller city has the lots and addresses of the start of a larger
 * one, spread over the boroughs and blocks as the whole city's are: the same distribution at every
 * size. Owners are drawn from a pool that grows with the city, as the synthetic city's do. Lots the generator gives the same BBL are kept once.
 */
export function* searchCity(count: number, seed = SEARCH_CITY_SEED): Generator<SearchCityBuilding> {
  const seen = new Set<string>();
  for (let index = 0; index < count; index++) {
    const b = buildingAt(seed, index, count);
    if (seen.has(b.bbl)) continue;
    seen.add(b.bbl);
    const address = `${b.houseNumber} ${b.street}`;
    yield {
      bbl: b.bbl,
      borough: b.borough.code,
      block: b.block,
      lot: b.lot,
      houseNumber: b.houseNumber,
      street: b.street,
      address,
      addressSearch: normalizeAddress(address),
      zipcode: b.zip,
      units: b.units,
      buildingClass: b.buildingClass,
      owner: b.owner.name,
    };
  }
}

/**
 * A typing slip in the street of a typed address: two adjacent letters of its longest word (of 5
 * letters or more) swapped, the house number untouched. The address unchanged when no word is long enough.
 */
export function withTypo(typed: string): string {
  const words = typed.split(' ');
  let at = -1;
  for (let i = 1; i < words.length; i++) {
    const w = words[i] as string;
    if (/^[a-z]{5,}$/i.test(w) && (at === -1 || w.length > (words[at] as string).length)) at = i;
  }
  if (at === -1) return typed;
  const word = words[at] as string;
  const middle = Math.floor(word.length / 2);
  words[at] = word.slice(0, middle) + (word[middle + 1] as string) + (word[middle] as string) + word.slice(middle + 2);
  return words.join(' ');
}

/** One line of COPY text format for `buildings` (the columns of BUILDING_COPY_COLUMNS). */
export const BUILDING_COPY_COLUMNS = ['bbl', 'borough', 'block', 'lot', 'house_number', 'street_name', 'address', 'zipcode', 'residential_units', 'building_class', 'owner_name', 'address_search'];

export function buildingCopyLine(b: SearchCityBuilding): string {
  const text = (v: string) => v.replace(/\\/g, '\\\\').replace(/\t/g, ' ').replace(/\n/g, ' ');
  return [b.bbl, b.borough, b.block, b.lot, text(b.houseNumber), text(b.street), text(b.address), b.zipcode, b.units, text(b.buildingClass), text(b.owner), text(b.addressSearch)].join('\t') + '\n';
}
