import type { BoroughCode } from '@bhis/domain';
import { hashInts } from './rng';

/** What the generator needs to know about a borough; real ranges, simplified layout. */
export interface BoroughGeography {
  readonly code: BoroughCode;
  /** `MANHATTAN` */
  readonly upper: string;
  /** `Manhattan` */
  readonly title: string;
  /** `MN` */
  readonly abbrev: string;
  /** share of the city's habitational lots */
  readonly share: number;
  readonly blockMin: number;
  readonly blockMax: number;
  readonly zips: readonly number[];
  readonly latMin: number;
  readonly latMax: number;
  readonly lonMin: number;
  readonly lonMax: number;
  readonly communityBoards: number;
  readonly councilDistricts: readonly [number, number];
  readonly ntas: readonly string[];
  /** Queens house numbers are hyphenated (`104-12`) */
  readonly hyphenatedHouseNumbers: boolean;
  readonly namedStreets: readonly string[];
  /** patterns of numbered streets: `{n}` is replaced by a number in [min, max] */
  readonly numberedStreets: readonly (readonly [string, number, number])[];
}

const AVENUE_LETTERS = 'ABCDEFHIJKLMNOPRSTUVWXZ';

export const BOROUGHS: readonly BoroughGeography[] = [
  {
    code: 1, upper: 'MANHATTAN', title: 'Manhattan', abbrev: 'MN', share: 0.06, blockMin: 1, blockMax: 2255,
    zips: [10001, 10002, 10003, 10009, 10010, 10011, 10012, 10013, 10014, 10016, 10019, 10021, 10023, 10024, 10025, 10026, 10027, 10028, 10029, 10030, 10031, 10032, 10033, 10034, 10035, 10036, 10037, 10039, 10040, 10065, 10075, 10128],
    latMin: 40.705, latMax: 40.872, lonMin: -74.015, lonMax: -73.915, communityBoards: 12, councilDistricts: [1, 10],
    ntas: ['Chinatown-Two Bridges', 'Lower East Side', 'East Village', 'Gramercy', 'Chelsea-Hudson Yards', 'Midtown-Times Square', 'Upper West Side (Central)', 'Upper East Side-Yorkville', 'East Harlem (North)', 'Central Harlem North-Polo Grounds', 'Hamilton Heights-Sugar Hill', 'Washington Heights (South)', 'Washington Heights (North)', 'Inwood'],
    hyphenatedHouseNumbers: false,
    namedStreets: ['BROADWAY', 'AMSTERDAM AVENUE', 'LEXINGTON AVENUE', 'PARK AVENUE', 'MADISON AVENUE', 'ST NICHOLAS AVENUE', 'RIVERSIDE DRIVE', 'FORT WASHINGTON AVENUE', 'MAGAW PLACE', 'DYCKMAN STREET', 'NAGLE AVENUE', 'BROOME STREET', 'CHERRY STREET', 'AVENUE D', 'LENOX AVENUE', 'ADAM C POWELL BOULEVARD', 'PLEASANT AVENUE', 'CONVENT AVENUE'],
    numberedStreets: [['WEST {n} STREET', 1, 220], ['EAST {n} STREET', 1, 130], ['{n} AVENUE', 1, 12]],
  },
  {
    code: 2, upper: 'BRONX', title: 'Bronx', abbrev: 'BX', share: 0.13, blockMin: 2260, blockMax: 5958,
    zips: [10451, 10452, 10453, 10454, 10455, 10456, 10457, 10458, 10459, 10460, 10461, 10462, 10463, 10464, 10465, 10466, 10467, 10468, 10469, 10470, 10471, 10472, 10473, 10474, 10475],
    latMin: 40.8, latMax: 40.905, lonMin: -73.925, lonMax: -73.79, communityBoards: 12, councilDistricts: [11, 18],
    ntas: ['Mott Haven-Port Morris', 'Melrose', 'Concourse-Concourse Village', 'Highbridge', 'Mount Eden-Claremont (West)', 'Mount Hope', 'Fordham Heights', 'Bedford Park', 'Norwood', 'Kingsbridge Heights-Van Cortlandt Village', 'Williamsbridge-Olinville', 'Parkchester', 'Soundview-Bruckner-Bronx River', 'Throgs Neck-Schuylerville', 'Co-op City'],
    hyphenatedHouseNumbers: false,
    namedStreets: ['GRAND CONCOURSE', 'JEROME AVENUE', 'GERARD AVENUE', 'WEBB AVENUE', 'SHERIDAN AVENUE', 'RYER AVENUE', 'KNOX PLACE', 'MAGENTA STREET', 'HOLLAND AVENUE', 'COLLEGE AVENUE', 'WALLACE AVENUE', 'CLARENCE AVENUE', 'VINCENT AVENUE', 'SOUTHERN BOULEVARD', 'UNIVERSITY AVENUE', 'BRIGGS AVENUE', 'HENWOOD PLACE', 'WALTON AVENUE', 'MORRIS AVENUE', 'VALENTINE AVENUE'],
    numberedStreets: [['EAST {n} STREET', 138, 240], ['WEST {n} STREET', 161, 262]],
  },
  {
    code: 3, upper: 'BROOKLYN', title: 'Brooklyn', abbrev: 'BK', share: 0.32, blockMin: 1, blockMax: 8955,
    zips: [11201, 11203, 11204, 11205, 11206, 11207, 11208, 11209, 11210, 11211, 11212, 11213, 11214, 11215, 11216, 11217, 11218, 11219, 11220, 11221, 11222, 11223, 11224, 11225, 11226, 11228, 11229, 11230, 11231, 11232, 11233, 11234, 11235, 11236, 11237, 11238, 11239],
    latMin: 40.58, latMax: 40.735, lonMin: -74.03, lonMax: -73.86, communityBoards: 18, councilDistricts: [33, 48],
    ntas: ['Greenpoint', 'Williamsburg', 'Bushwick (North)', 'Bedford-Stuyvesant (East)', 'Stuyvesant Heights', 'Crown Heights North', 'Crown Heights (South)', 'Prospect Lefferts Gardens-Wingate', 'East Flatbush-Erasmus', 'Rugby-Remsen Village', 'Flatlands', 'East New York-New Lots', 'Cypress Hills-City Line', 'Ocean Hill', 'Sunset Park (Central)', 'Bay Ridge', 'Borough Park', 'Sheepshead Bay-Manhattan Beach-Gerritsen Beach', 'Brighton Beach', 'Canarsie'],
    hyphenatedHouseNumbers: false,
    namedStreets: ['SNYDER AVENUE', 'HERKIMER STREET', 'DEAN STREET', 'HALSEY STREET', 'EASTERN PARKWAY', 'ROGERS AVENUE', 'FLATBUSH AVENUE', 'OCEAN AVENUE', 'GREEN STREET', 'GRATTAN STREET', 'SUMPTER STREET', 'HENDRIX PLACE', 'LAFAYETTE AVENUE', 'VOORHIES AVENUE', 'ROCKAWAY PARKWAY', 'STERLING STREET', 'NOSTRAND AVENUE', 'BEDFORD AVENUE', 'KINGS HIGHWAY', 'OCEAN PARKWAY', 'BUSHWICK AVENUE'],
    numberedStreets: [['EAST {n} STREET', 1, 108], ['{n} STREET', 1, 101], ['AVENUE {L}', 0, AVENUE_LETTERS.length - 1]],
  },
  {
    code: 4, upper: 'QUEENS', title: 'Queens', abbrev: 'QN', share: 0.36, blockMin: 1, blockMax: 16350,
    zips: [11101, 11102, 11103, 11104, 11105, 11106, 11354, 11355, 11356, 11357, 11358, 11360, 11361, 11362, 11363, 11364, 11365, 11366, 11367, 11368, 11369, 11370, 11372, 11373, 11374, 11375, 11377, 11378, 11379, 11385, 11411, 11412, 11413, 11414, 11415, 11416, 11417, 11418, 11419, 11420, 11421, 11422, 11423, 11426, 11427, 11428, 11429, 11432, 11433, 11434, 11435, 11436, 11691, 11692, 11693, 11694],
    latMin: 40.57, latMax: 40.795, lonMin: -73.96, lonMax: -73.71, communityBoards: 14, councilDistricts: [19, 32],
    ntas: ['Astoria (Central)', 'Long Island City-Hunters Point', 'Sunnyside', 'Jackson Heights', 'Elmhurst', 'Corona', 'Flushing-Willets Point', 'Forest Hills', 'Rego Park', 'Kew Gardens Hills', 'Jamaica', 'Hollis', 'St. Albans', 'Rosedale', 'Baisley Park', 'Richmond Hill', 'Ozone Park', 'Ridgewood', 'Far Rockaway-Bayswater', 'Bayside'],
    hyphenatedHouseNumbers: true,
    namedStreets: ['QUEENS BOULEVARD', 'HOLLIS AVENUE', 'LINDEN BOULEVARD', 'JAMAICA AVENUE', 'NORTHERN BOULEVARD', 'ELMHURST AVENUE', 'WOODBINE STREET', 'DIX AVENUE', 'POINT BREEZE PLACE', 'MUHLEBACH COURT', 'PENROD STREET', 'HILLSIDE AVENUE', 'ASTORIA BOULEVARD', 'ROOSEVELT AVENUE', 'MYRTLE AVENUE'],
    numberedStreets: [['{n} STREET', 1, 271], ['{n} AVENUE', 20, 148], ['{n} ROAD', 20, 147], ['{n} DRIVE', 20, 137]],
  },
  {
    code: 5, upper: 'STATEN ISLAND', title: 'Staten Island', abbrev: 'SI', share: 0.13, blockMin: 1, blockMax: 8050,
    zips: [10301, 10302, 10303, 10304, 10305, 10306, 10307, 10308, 10309, 10310, 10312, 10314],
    latMin: 40.5, latMax: 40.645, lonMin: -74.245, lonMax: -74.06, communityBoards: 3, councilDistricts: [49, 51],
    ntas: ['St. George-New Brighton', 'Stapleton-Clifton-Fox Hills', 'Port Richmond', 'Mariner\'s Harbor-Arlington-Graniteville', 'Westerleigh-Castleton Corners', 'New Springville-Willowbrook-Bulls Head-Travis', 'Grymes Hill-Park Hill-Clifton', 'Great Kills-Eltingville', 'Tottenville-Charleston', 'Annadale-Huguenot-Prince\'s Bay-Woodrow'],
    hyphenatedHouseNumbers: false,
    namedStreets: ['RICHMOND AVENUE', 'HYLAN BOULEVARD', 'VICTORY BOULEVARD', 'FOREST AVENUE', 'BAY STREET', 'RIDGEWOOD AVENUE', 'YORK AVENUE', 'CASTLETON AVENUE', 'ARTHUR KILL ROAD', 'AMBOY ROAD', 'TARGEE STREET', 'JEWETT AVENUE', 'MANOR ROAD', 'CLOVE ROAD', 'PORT RICHMOND AVENUE', 'NELSON AVENUE', 'ANNADALE ROAD', 'DEWEY AVENUE', 'GANSEVOORT BOULEVARD', 'HAVEN ESPLANADE'],
    numberedStreets: [],
  },
];

export function boroughGeography(code: BoroughCode): BoroughGeography {
  return BOROUGHS[code - 1];
}

/** A neighbourhood: a run of blocks sharing a zip code, community board, NTA and a map cell. */
export interface Zone {
  readonly borough: BoroughGeography;
  readonly index: number;
  readonly zip: number;
  readonly communityBoard: number;
  readonly councilDistrict: number;
  readonly nta: string;
  readonly latMin: number;
  readonly latMax: number;
  readonly lonMin: number;
  readonly lonMax: number;
}

const zoneCache = new Map<string, Zone>();

/** The zone of a block: each zip code owns an equal run of the borough's blocks. */
export function zoneOfBlock(borough: BoroughGeography, block: number): Zone {
  const zones = borough.zips.length;
  const span = (borough.blockMax - borough.blockMin + 1) / zones;
  const index = Math.min(zones - 1, Math.floor((block - borough.blockMin) / span));
  const key = `${borough.code}:${index}`;
  let zone = zoneCache.get(key);
  if (!zone) {
    const cols = Math.ceil(Math.sqrt(zones));
    const rows = Math.ceil(zones / cols);
    const row = Math.floor(index / cols);
    const col = index % cols;
    const latStep = (borough.latMax - borough.latMin) / rows;
    const lonStep = (borough.lonMax - borough.lonMin) / cols;
    const [cdLow, cdHigh] = borough.councilDistricts;
    zone = {
      borough,
      index,
      zip: borough.zips[index],
      communityBoard: 1 + Math.floor((index * borough.communityBoards) / zones),
      councilDistrict: cdLow + Math.floor((index * (cdHigh - cdLow + 1)) / zones),
      nta: borough.ntas[Math.floor((index * borough.ntas.length) / zones)],
      latMin: borough.latMin + row * latStep,
      latMax: borough.latMin + (row + 1) * latStep,
      lonMin: borough.lonMin + col * lonStep,
      lonMax: borough.lonMin + (col + 1) * lonStep,
    };
    zoneCache.set(key, zone);
  }
  return zone;
}

/** The street a block fronts (a pure function of the block, so lots on one block share a street). */
export function streetOfBlock(borough: BoroughGeography, block: number): string {
  const h = hashInts(borough.code, block, 77);
  const patterns = borough.numberedStreets;
  const useNumbered = patterns.length > 0 && h % 100 < 60;
  if (!useNumbered) return borough.namedStreets[(h >>> 8) % borough.namedStreets.length];
  const [pattern, min, max] = patterns[(h >>> 8) % patterns.length];
  const n = min + ((h >>> 12) % (max - min + 1));
  if (pattern.includes('{L}')) return pattern.replace('{L}', AVENUE_LETTERS[n]);
  return pattern.replace('{n}', String(n));
}

/** A five-digit street code, stable per street name and borough. */
export function streetCodeOf(borough: BoroughCode, street: string): string {
  let h = borough * 131;
  for (let i = 0; i < street.length; i++) h = (Math.imul(h, 31) + street.charCodeAt(i)) >>> 0;
  return String(10000 + (h % 89990));
}
