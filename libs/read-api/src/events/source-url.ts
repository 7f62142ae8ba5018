import { findSource, primaryDatasetId, SOCRATA_HOST } from '@bhis/sources';

export interface EventLocation {
  source: string;
  bbl: string;
  /** `attributes.building_id` of HPD records, as text. */
  hpdBuildingId: string | null;
}

type UrlRule = (event: EventLocation) => string | null;

/** HPD Online's page of the building: violations, complaints, litigation, orders, registrations. */
const hpdBuilding: UrlRule = ({ hpdBuildingId }) =>
  hpdBuildingId && /^\d{1,9}$/.test(hpdBuildingId) ? `https://hpdonline.nyc.gov/hpdonline/building/${hpdBuildingId}` : null;

/** DOB BIS property profile: the entry to the lot's DOB violations, ECB violations, complaints and jobs. */
const dobProperty: UrlRule = ({ bbl }) =>
  `https://a810-bisweb.nyc.gov/bisweb/PropertyProfileOverviewServlet?boro=${bbl[0]}&block=${bbl.slice(1, 6)}&lot=${bbl.slice(6)}`;

/**
 * Where a record can be seen on the publisher's site, per source. Sources without a stable per-record or
 * per-building page (311, DOB NOW, FDNY, DOF, DOHMH, evictions) link to their Open Data set.
 */
const RULES: Readonly<Record<string, UrlRule>> = {
  hpd_violations: hpdBuilding,
  hpd_complaints: hpdBuilding,
  hpd_litigations: hpdBuilding,
  hpd_vacate_orders: hpdBuilding,
  hpd_aep: hpdBuilding,
  hpd_underlying_conditions: hpdBuilding,
  hpd_emergency_repairs: hpdBuilding,
  hpd_bedbugs: hpdBuilding,
  hpd_registrations: hpdBuilding,
  dob_violations: dobProperty,
  dob_ecb_violations: dobProperty,
  dob_safety_violations: dobProperty,
  dob_complaints: dobProperty,
  dob_job_filings: dobProperty,
  dob_vacate_orders: dobProperty,
};

const datasetPages = new Map<string, string | null>();

function datasetPage(source: string): string | null {
  if (!datasetPages.has(source)) {
    const definition = findSource(source);
    const datasetId = definition ? primaryDatasetId(definition) : null;
    datasetPages.set(source, datasetId ? `${SOCRATA_HOST}/d/${datasetId}` : null);
  }
  return datasetPages.get(source) ?? null;
}

/** The public page of an event's record: the source's rule, else its Open Data set, else null. */
export function sourceUrl(event: EventLocation): string | null {
  return RULES[event.source]?.(event) ?? datasetPage(event.source);
}
