import type { Building } from '../buildings';
import { csvLine } from '../csv';
import { mdy } from '../dates';
import type { BedbugFiling } from '../records';
import { HEADERS } from './headers';
import { rowBuilder } from './row';

const build = rowBuilder(HEADERS.hpd_bedbugs);

export function hpdBedbugLine(b: Building, f: BedbugFiling): string {
  return csvLine(
    build({
      'Building ID': String(b.hpdBuildingIds[0]),
      'Registration ID': String(b.registrationId),
      Borough: b.borough.upper,
      'House Number': b.houseNumber,
      'Street Name': b.street,
      Postcode: b.zip,
      '# of Dwelling Units': String(b.units),
      'Infested Dwelling Unit Count': String(f.infested),
      'Eradicated Unit Count': String(f.eradicated),
      'Re-infested  Dwelling Unit Count': String(f.reinfested),
      'Filing Date': mdy(f.day),
      'Filing Period Start Date': mdy(f.periodStart),
      'Filling Period End Date': mdy(f.periodEnd),
      Latitude: b.latitude.toFixed(6),
      Longitude: b.longitude.toFixed(6),
      BIN: b.bins[0],
      BBL: b.bbl,
    }),
  );
}
