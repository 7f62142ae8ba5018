/**
 * Street suffixes as people and mailers write them, mapped to the spelled-out name the city's
 * addresses use (PLUTO and HPD write `347 LEXINGTON AVENUE`, `2105 RYER AVENUE`).
 *
 * Source: USPS Publication 28, Postal Addressing Standards, Appendix C1 "Street Suffix Abbreviations"
 * (https://pe.usps.com/text/pub28/28apc_002.htm): for each primary street suffix name, the commonly
 * used suffixes or abbreviations and the Postal Service standard abbreviation. Only the suffixes of
 * New York City's streets are listed; each maps every spelling C1 gives for it (the standard
 * abbreviation included) to C1's primary name.
 */
const PUB28_C1: Readonly<Record<string, readonly string[]>> = {
  ALLEY: ['ALLEE', 'ALLEY', 'ALLY', 'ALY'],
  AVENUE: ['AV', 'AVE', 'AVEN', 'AVENU', 'AVENUE', 'AVN', 'AVNUE'],
  BEACH: ['BCH', 'BEACH'],
  BOULEVARD: ['BLVD', 'BOUL', 'BOULEVARD', 'BOULV'],
  CIRCLE: ['CIR', 'CIRC', 'CIRCL', 'CIRCLE', 'CRCL', 'CRCLE'],
  COURT: ['COURT', 'CT'],
  CRESCENT: ['CRES', 'CRESCENT', 'CRSENT', 'CRSNT'],
  DRIVE: ['DR', 'DRIV', 'DRIVE', 'DRV'],
  EXPRESSWAY: ['EXP', 'EXPR', 'EXPRESS', 'EXPRESSWAY', 'EXPW', 'EXPY'],
  HEIGHTS: ['HT', 'HTS'],
  HIGHWAY: ['HIGHWAY', 'HIGHWY', 'HIWAY', 'HIWY', 'HWAY', 'HWY'],
  LANE: ['LANE', 'LN'],
  LOOP: ['LOOP', 'LOOPS'],
  OVAL: ['OVAL', 'OVL'],
  PARKWAY: ['PARKWAY', 'PARKWY', 'PKWAY', 'PKWY', 'PKY'],
  PLACE: ['PL', 'PLACE'],
  PLAZA: ['PLAZA', 'PLZ', 'PLZA'],
  ROAD: ['RD', 'ROAD'],
  ROW: ['ROW'],
  SQUARE: ['SQ', 'SQR', 'SQRE', 'SQU', 'SQUARE'],
  STREET: ['ST', 'STREET', 'STRT', 'STR'],
  TERRACE: ['TER', 'TERR', 'TERRACE'],
  TURNPIKE: ['TRNPK', 'TURNPIKE', 'TURNPK', 'TPKE'],
  WALK: ['WALK'],
  WAY: ['WAY'],
};

/** Every spelling of a suffix -> the name the city's addresses spell out. */
export const STREET_SUFFIXES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(PUB28_C1).flatMap(([name, spellings]) => [[name, name], ...spellings.map((spelling) => [spelling, name])]),
);
