import type { Building } from '../buildings';
import { csvLineQuoteAll } from '../csv';
import { mdy } from '../dates';
import { HEADERS } from './headers';
import { rowBuilder, type RowValues, thousands } from './row';

const build = rowBuilder(HEADERS.pluto);

/** One PLUTO row per tax lot; every non-empty value quoted, numbers with thousands separators. */
export function plutoLine(b: Building): string {
  return csvLineQuoteAll(build({ ...lotAndDistricts(b), ...buildingOnLot(b), ...valuesAndMaps(b) }));
}

/** The lot and the districts it lies in. */
function lotAndDistricts(b: Building): RowValues {
  return {
    borough: b.borough.abbrev,
    'Tax block': String(b.block),
    'Tax lot': String(b.lot),
    'community board': `${b.borough.code}${String(b.zone.communityBoard).padStart(2, '0')}`,
    'census tract 2010': b.censusTract,
    cb2010: String(1000 + (b.lot % 20)),
    schooldist: String(1 + (b.zone.index % 32)),
    'council district': String(b.zone.councilDistrict),
    postcode: b.zip,
    firecomp: `E${String(1 + (b.zone.index * 7) % 330).padStart(3, '0')}`,
    policeprct: String(1 + (b.zone.index * 3) % 123),
    healtharea: String(100 * (1 + (b.zone.index % 50))),
    sanitboro: String(b.borough.code),
    sanitsub: `${1 + (b.zone.index % 9)}${'ABCDE'[b.zone.index % 5]}`,
  };
}

/** What stands on the lot: zoning, class, owner, areas, size and age. */
function buildingOnLot(b: Building): RowValues {
  return {
    address: `${b.houseNumber} ${b.street}`,
    zonedist1: b.units <= 2 ? 'R3A' : b.units < 20 ? 'R6' : 'R7-1',
    ltdheight: '',
    splitzone: 'false',
    bldgclass: b.buildingClass,
    landuse: b.landUse,
    easements: '0',
    // X: fully tax-exempt (the housing authority's lots)
    ownertype: b.publicHousing ? 'X' : b.owner.kind === 'corporate' && b.owner.name.includes('HOUSING DEVELOPMENT') ? 'P' : '',
    ownername: b.owner.name,
    lotarea: thousands(b.lotArea),
    bldgarea: thousands(b.buildingArea),
    comarea: thousands(b.commercialArea),
    resarea: thousands(b.buildingArea - b.commercialArea),
    officearea: '0',
    retailarea: thousands(b.commercialArea),
    garagearea: '0',
    strgearea: '0',
    factryarea: '0',
    otherarea: '0',
    areasource: '2',
    numbldgs: String(b.bins.length),
    numfloors: String(b.stories),
    unitsres: thousands(b.units),
    unitstotal: thousands(b.unitsTotal),
    lotfront: String(20 + (b.lotArea % 80)),
    lotdepth: '100',
    bldgfront: String(17 + (b.lotArea % 60)),
    bldgdepth: String(33 + (b.buildingArea % 50)),
    ext: b.units <= 2 ? 'N' : '',
    proxcode: b.units <= 2 ? '3' : '1',
    irrlotcode: 'false',
    lottype: '5',
    bsmtcode: '1',
  };
}

/** Assessed values, floor area ratios, identifiers and map references. */
function valuesAndMaps(b: Building): RowValues {
  const assessLand = Math.round(b.lotArea * 6 + b.index % 997);
  const assessTotal = assessLand + Math.round(b.buildingArea * 11);
  const xcoord = Math.round(913000 + (b.longitude + 74.26) * 260000);
  const ycoord = Math.round(120000 + (b.latitude - 40.49) * 364000);
  return {
    assessland: thousands(assessLand),
    assesstot: thousands(assessTotal),
    exempttot: b.publicHousing ? thousands(assessTotal) : '0',
    yearbuilt: String(b.yearBuilt),
    yearalter1: b.yearBuilt < 1960 && b.index % 3 === 0 ? String(1990 + (b.index % 30)) : '0',
    yearalter2: '0',
    builtfar: (b.buildingArea / b.lotArea).toFixed(2),
    residfar: b.units <= 2 ? '0.75' : '3.44',
    commfar: '0',
    facilfar: '1',
    affresfar: '',
    mnffar: '0',
    borocode: String(b.borough.code),
    BBL: b.bbl,
    condono: b.isCondo ? String(b.index % 9000 + 1) : '',
    tract2010: b.censusTract,
    xcoord: String(xcoord),
    ycoord: String(ycoord),
    latitude: b.latitude.toFixed(7),
    longitude: b.longitude.toFixed(7),
    zonemap: `${1 + (b.zone.index % 30)}${'abcd'[b.zone.index % 4]}`,
    sanborn: `${b.borough.code}${String(b.zone.index).padStart(2, '0')} ${String(b.block % 1000).padStart(3, '0')}`,
    taxmap: String(10000 * b.borough.code + (b.block % 9999)),
    appbbl: '',
    appdate: b.isCondo ? mdy(11000 + (b.index % 3000)) : '',
    plutomapid: '1',
    version: '26v1',
    sanitdistrict: String(b.zone.communityBoard),
    healthcenterdistrict: String(10 + b.borough.code * 3),
    firm07_flag: '',
    pfirm15_flag: b.zone.index % 5 === 0 ? '1' : '',
    bct2020: `${b.borough.code}${b.censusTract.padStart(6, '0')}`,
    bctcb2020: `${b.borough.code}${b.censusTract.padStart(6, '0')}${String(1000 + (b.lot % 20))}`,
    transitzone: b.borough.code === 1 ? 'Manhattan Core' : 'Beyond the Greater Transit Zone',
  };
}
