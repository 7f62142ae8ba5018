import { findSource } from '@bhis/sources';
import { CONFIDENCE_FLAG_RULES } from './confidence';
import { FLAG_DEFINITIONS } from './flags';
import { KNOWN_LIMIT_RULES } from './known-limits';

/** How a flag reads to a person: a short label and one line on what it means. */
export interface FlagLabel {
  label: string;
  explanation: string;
}

/**
 * Every flag a building's `scores.flags` and `confidence.flags` can hold, by slug: the one table the
 * pages and the API reference read. `stale-source:<key>` is one entry; `flagLabel` fills in the source.
 */
export const FLAG_LABELS: Readonly<Record<string, FlagLabel>> = {
  // scores.flags (FLAG_DEFINITIONS)
  'fdny-vacate-active': { label: 'FDNY vacate order', explanation: 'The Fire Department has ordered the building vacated and the order is still open.' },
  'hpd-vacate-active': { label: 'HPD vacate order', explanation: 'HPD has ordered all or part of the building vacated and the order has not been rescinded.' },
  'dob-vacate-active': { label: 'DOB vacate order', explanation: 'The Department of Buildings has ordered all or part of the building vacated and the order is still open.' },
  'fire-damage-recent': { label: 'Recent fire', explanation: 'A fire, fire damage or fire vacate is on record in the last 12 months.' },
  'aep-active': { label: 'In HPD’s AEP', explanation: 'The building is enrolled in HPD’s Alternative Enforcement Program for distressed buildings and not yet discharged.' },
  'aep-criteria-met': { label: 'Meets the AEP criteria', explanation: 'Its open violations and emergency repair charges reach the level HPD uses to select buildings for the Alternative Enforcement Program.' },
  'ucp-active': { label: 'HPD underlying-conditions order', explanation: 'An open order of HPD’s Underlying Conditions Program requires the owner to fix the cause of leaks or mold.' },
  'ucp-criteria-met': { label: 'Meets the UCP criteria', explanation: 'Leak and mold violations of the last 12 months reach the level of HPD’s Underlying Conditions Program.' },
  'watchlist-criteria-met': { label: 'At the Watchlist level', explanation: 'Open class B and C violations per unit reach the level of the Public Advocate’s Worst Landlord Watchlist.' },
  'open-class-c': { label: 'Open hazardous violation', explanation: 'At least one HPD class C (immediately hazardous) violation is open.' },
  'lead-paint-open': { label: 'Open lead-paint violation', explanation: 'At least one HPD class B or C lead-paint violation is open.' },
  'water-damage-recent': { label: 'Recent leak or mold violation', explanation: 'HPD issued a class B or C violation for water damage or mold in the last 12 months.' },
  'heat-season-complaints': { label: 'Heat complaints', explanation: 'Heat and hot water complaints of the last heat season reach at least 3, and at least 1 per 10 units.' },
  'emergency-repairs-recent': { label: 'Recent emergency repairs', explanation: 'HPD made emergency repairs at the owner’s expense in the last 12 months.' },
  'fema-repair': { label: 'Disaster repair', explanation: 'A FEMA disaster repair in the last 5 years; shown, not scored.' },
  'unsafe-facade': { label: 'Unsafe facade', explanation: 'The last facade inspection found the facade unsafe and it has not been corrected.' },
  'hpd-litigation-open': { label: 'Open HPD lawsuit', explanation: 'HPD has a case against the owner in Housing Court that is still open.' },
  'tax-lien-sale-listed': { label: 'On the tax lien sale list', explanation: 'The property was on the city’s tax lien sale list in the last 12 months.' },
  'registration-expired': { label: 'Registration expired', explanation: 'The building must register with HPD every year and its registration has lapsed.' },
  'no-registration': { label: 'Not registered', explanation: 'The building must register with HPD and has no registration on record.' },
  // scores.flags and confidence.flags (known limits)
  'public-housing': { label: 'Public housing', explanation: 'HPD does not inspect or enforce in public housing, so these records cannot grade it.' },
  'units-unknown': { label: 'Unit count unreliable', explanation: 'The unit count is missing or the city’s sources disagree, so per-unit rates cannot be trusted.' },
  // confidence.flags (CONFIDENCE_FLAG_RULES)
  'no-confirmed-records': { label: 'No confirmed records', explanation: 'Nothing on record besides tenant reports: no violation, order or repair confirms them.' },
  'sparse-data-small-building': { label: 'Little data, small building', explanation: 'A building of up to 5 units with few records: a few reports move its score a lot.' },
  'stale-source': { label: 'Some data is out of date', explanation: 'At least one source this score reads was not refreshed on time, is failing, or was never loaded.' },
  'stale-source:<key>': { label: 'Out of date: {source}', explanation: 'The source {source} was not refreshed on time, is failing, or was never loaded.' },
  'multi-building-lot': { label: 'Several buildings on the lot', explanation: 'The lot holds more than one building; its records may belong to any of them.' },
  'complaints-only': { label: 'Complaints only', explanation: 'Complaints are on record but no violation, order, lawsuit or emergency repair.' },
  'no-hpd-coverage': { label: 'Outside HPD’s jurisdiction', explanation: 'HPD violations, registrations and lawsuits do not apply to this building.' },
  'no-unit-count': { label: 'No unit count', explanation: 'No source gives a unit count; per-unit rates assume 3 units.' },
};

const STALE_SOURCE = 'stale-source:';

/** The label of a flag; an unknown slug (a newer model's) reads as itself. */
export function flagLabel(slug: string): FlagLabel {
  if (slug.startsWith(STALE_SOURCE)) {
    const key = slug.slice(STALE_SOURCE.length);
    const source = findSource(key)?.name ?? key;
    const template = FLAG_LABELS['stale-source:<key>'];
    return { label: template.label.replace('{source}', source), explanation: template.explanation.replace('{source}', source) };
  }
  return Object.prototype.hasOwnProperty.call(FLAG_LABELS, slug) ? FLAG_LABELS[slug] : { label: slug, explanation: '' };
}

/** Flags of `scores.flags`: the alert flags and the known limits. */
export const SCORE_FLAG_SLUGS: readonly string[] = [...FLAG_DEFINITIONS.map((flag) => flag.key), ...KNOWN_LIMIT_RULES.map((rule) => rule.key)];
/** Flags of `confidence.flags`. */
export const CONFIDENCE_FLAG_SLUGS: readonly string[] = [...KNOWN_LIMIT_RULES.map((rule) => rule.key), ...CONFIDENCE_FLAG_RULES.map((rule) => rule.key)];

/** A Markdown list of flags with their labels and explanations, for the API reference. */
export function flagGlossary(slugs: readonly string[]): string {
  return [...new Set(slugs)].map((slug) => `- \`${slug}\`: **${FLAG_LABELS[slug]?.label ?? slug}.** ${FLAG_LABELS[slug]?.explanation ?? ''}`).join('\n');
}
