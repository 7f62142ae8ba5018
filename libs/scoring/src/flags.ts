import { BuildingFeatures } from './features';
import { HEAT_SEASON } from './heat-season';
import { BuildingInput } from './input';
import { meetsAepCriteria, meetsUcpCriteria, meetsWatchlistLevel } from './public-anchors';

/** Heat complaints in the season that raise the flag: at least 3, and at least 1 per 10 units. */
export const HEAT_FLAG_MIN_COMPLAINTS = 3;
export const HEAT_FLAG_PER_UNIT = 0.1;

interface FlagDefinition {
  key: string;
  rule: string;
  applies: (f: BuildingFeatures, input: BuildingInput) => boolean;
}

/** Alert flags, in the order they are reported. "Open" means status open or active. */
export const FLAG_DEFINITIONS: readonly FlagDefinition[] = [
  {
    key: 'fdny-vacate-active',
    rule: 'An open fdny_vacate event (FDNY vacate list). A catastrophe: flagged, never scored.',
    applies: (f) => f.active_fdny_vacates > 0,
  },
  {
    key: 'hpd-vacate-active',
    rule: 'An open hpd_vacate_order event (no rescind date), whatever its reason; fire vacates are not scored.',
    applies: (f) => f.active_hpd_vacates > 0,
  },
  {
    key: 'dob-vacate-active',
    rule: 'An open dob_vacate_order event, whatever its reason.',
    applies: (f) => f.active_dob_vacates > 0,
  },
  {
    key: 'fire-damage-recent',
    rule: 'Any event of category fire (fire damage, fire vacates) in the last 12 months.',
    applies: (f) => f.fire_events_12m > 0,
  },
  { key: 'aep-active', rule: 'An open aep_enrollment event (enrolled, not discharged).', applies: (f) => f.active_aep > 0 },
  {
    key: 'aep-criteria-met',
    rule: 'Meets the HPD AEP selection criteria (see Public anchors).',
    applies: (f) => meetsAepCriteria(f),
  },
  { key: 'ucp-active', rule: 'An open ucp_order event.', applies: (f) => f.active_ucp > 0 },
  {
    key: 'ucp-criteria-met',
    rule: 'B/C leak or mold violations in the last 12 months at the UCP level (see Public anchors).',
    applies: (f) => meetsUcpCriteria(f),
  },
  {
    key: 'watchlist-criteria-met',
    rule: 'Open B/C violations per unit at the Worst Landlord Watchlist level (see Public anchors).',
    applies: (f) => meetsWatchlistLevel(f),
  },
  {
    key: 'open-class-c',
    rule: 'At least one open HPD class C (immediately hazardous) violation, any age.',
    applies: (f) => f.open_c_violations > 0,
  },
  {
    key: 'lead-paint-open',
    rule: 'At least one open HPD class B/C violation of category lead_paint.',
    applies: (f) => f.open_lead_paint_violations > 0,
  },
  {
    key: 'water-damage-recent',
    rule: 'At least one HPD class B/C violation of category water_damage or mold in the last 12 months, any status.',
    applies: (f) => f.water_bc_violations_12m > 0,
  },
  {
    key: 'heat-season-complaints',
    rule: `aggregates.heat_season_complaints >= max(${HEAT_FLAG_MIN_COMPLAINTS}, ceil(${HEAT_FLAG_PER_UNIT} x units)) in the heat season window (${HEAT_SEASON.description}, see heatSeasonWindow).`,
    applies: (f, input) =>
      input.aggregates.heat_season_complaints >= Math.max(HEAT_FLAG_MIN_COMPLAINTS, Math.ceil(HEAT_FLAG_PER_UNIT * f.units)),
  },
  {
    key: 'emergency-repairs-recent',
    rule: 'At least one HPD emergency repair (OMO or HWO, disaster repairs excluded) in the last 12 months.',
    applies: (f) => f.emergency_repairs_12m > 0,
  },
  {
    key: 'fema-repair',
    rule: 'At least one scoring-excluded emergency repair (FEMA disaster repair) in the last 5 years. Not scored.',
    applies: (f) => f.disaster_repairs_5y > 0,
  },
  {
    key: 'unsafe-facade',
    rule: 'An open facade_filing of severity critical (FISP UNSAFE not yet corrected).',
    applies: (f) => f.unsafe_facades_open > 0,
  },
  { key: 'hpd-litigation-open', rule: 'An open hpd_litigation event.', applies: (f) => f.open_litigation > 0 },
  {
    key: 'tax-lien-sale-listed',
    rule: 'A tax_lien_sale_listing event in the last 12 months.',
    applies: (f) => f.tax_lien_listings_12m > 0,
  },
  {
    key: 'registration-expired',
    rule: 'Must register with HPD (in HPD jurisdiction, 3+ units) and registration_end_date is before as_of.',
    applies: (f) => f.registration_status === 'expired',
  },
  {
    key: 'no-registration',
    rule: 'Must register with HPD (privately owned, in HPD jurisdiction, 3+ units) and has no registration.',
    applies: (f) => f.registration_status === 'missing',
  },
];

export const FLAG_KEYS: readonly string[] = FLAG_DEFINITIONS.map((flag) => flag.key);

export function flagsOf(features: BuildingFeatures, input: BuildingInput): string[] {
  const flags: string[] = [];
  for (const flag of FLAG_DEFINITIONS) if (flag.applies(features, input)) flags.push(flag.key);
  return flags;
}
