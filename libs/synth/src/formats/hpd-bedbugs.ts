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
      building_id: String(b.hpdBuildingIds[0]),
      registration_id: String(b.registrationId),
      borough: b.borough.upper,
      house_number: b.houseNumber,
      street_name: b.street,
      postcode: b.zip,
      of_dwelling_units: String(b.units),
      infested_dwelling_unit_count: String(f.infested),
      eradicated_unit_count: String(f.eradicated),
      re_infested_dwelling_unit: String(f.reinfested),
      filing_date: mdy(f.day),
      filing_period_start_date: mdy(f.periodStart),
      filling_period_end_date: mdy(f.periodEnd),
      latitude: b.latitude.toFixed(6),
      longitude: b.longitude.toFixed(6),
      bin: b.bins[0],
      bbl: b.bbl,
    }),
  );
}
