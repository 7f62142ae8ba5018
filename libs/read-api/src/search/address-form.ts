/** A house number as the city writes them: `123`, `12A`, Queens `104-12`. */
const HOUSE_NUMBER = /^\d+[A-Z]?(-\d+[A-Z]?)?$/;

/**
 * Which addresses an address query matches, each form backed by an index:
 * - a lone house number (or its start, still typing): addresses starting with it (btree text_pattern_ops);
 * - house number + street: that house number, with the rest similar enough (word similarity; typos in
 *   the street tolerated), both sought in buildings_house_street_idx;
 * - a street without house number (`lexington`, `w 45 st`): the buildings on the streets starting with
 *   it, in street order (buildings_street_idx): a page reads its own rows, however long the street and
 *   large the city. Refused (search-params.ts) when no word of it is more than a direction or street type.
 * A trigram-similarity scan over all addresses is avoided: common trigrams (STREET, AVENUE) make it
 * read most of the table.
 */
export function addressForm(address: string): 'prefix' | 'house_number' | 'street' {
  const words = address.split(' ');
  const first = words[0] as string;
  if (words.length === 1) return /^\d/.test(first) ? 'prefix' : 'street';
  return HOUSE_NUMBER.test(first) ? 'house_number' : 'street';
}
