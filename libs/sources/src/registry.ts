import { SourceDefinition, SourcePart } from './definition';
import { dobComplaints } from './definitions/dob-complaints';
import { dobEcbViolations } from './definitions/dob-ecb-violations';
import { dobFacades } from './definitions/dob-facades';
import { dobJobFilings } from './definitions/dob-job-filings';
import { dobNowJobFilings } from './definitions/dob-now-job-filings';
import { dobSafetyViolations } from './definitions/dob-safety-violations';
import { dobVacateOrders } from './definitions/dob-vacate-orders';
import { dobViolations } from './definitions/dob-violations';
import { dofTaxLiens } from './definitions/dof-tax-liens';
import { dohmhRodents } from './definitions/dohmh-rodents';
import { evictions } from './definitions/evictions';
import { fdnyVacates } from './definitions/fdny-vacates';
import { hpdAep } from './definitions/hpd-aep';
import { hpdBedbugs } from './definitions/hpd-bedbugs';
import { hpdComplaints } from './definitions/hpd-complaints';
import { hpdEmergencyRepairs } from './definitions/hpd-emergency-repairs';
import { hpdJurisdiction } from './definitions/hpd-jurisdiction';
import { hpdLitigations } from './definitions/hpd-litigations';
import { hpdRegistrationContacts } from './definitions/hpd-registration-contacts';
import { hpdRegistrations } from './definitions/hpd-registrations';
import { hpdUnderlyingConditions } from './definitions/hpd-underlying-conditions';
import { hpdVacateOrders } from './definitions/hpd-vacate-orders';
import { hpdViolations } from './definitions/hpd-violations';
import { nyc311 } from './definitions/nyc311';
import { pluto } from './definitions/pluto';

/**
 * Every source, in load order: PLUTO and HPD jurisdiction first (they define the building universe
 * and the BIN->BBL map), registrations before their contacts and before the sets resolved through a
 * registration id, then the event sources.
 */
export const SOURCES = [
  pluto,
  hpdJurisdiction,
  hpdRegistrations,
  hpdRegistrationContacts,
  hpdViolations,
  hpdComplaints,
  hpdLitigations,
  hpdVacateOrders,
  hpdAep,
  hpdUnderlyingConditions,
  hpdEmergencyRepairs,
  hpdBedbugs,
  dobViolations,
  dobEcbViolations,
  dobSafetyViolations,
  dobComplaints,
  dobJobFilings,
  dobNowJobFilings,
  dobFacades,
  dobVacateOrders,
  nyc311,
  fdnyVacates,
  dofTaxLiens,
  dohmhRodents,
  evictions,
] as const satisfies readonly SourceDefinition[];

/** The key of a source of the registry: the one list of sources ingest, scoring and the API read. */
export type SourceKey = (typeof SOURCES)[number]['key'];

/** Every source key, in load order (typed for `z.enum`). */
export const SOURCE_KEYS = SOURCES.map((source) => source.key) as readonly SourceKey[] as readonly [SourceKey, ...SourceKey[]];

export function isSourceKey(key: string): key is SourceKey {
  return BY_KEY.has(key);
}

const BY_KEY: ReadonlyMap<string, SourceDefinition> = new Map(SOURCES.map((source) => [source.key, source]));
if (BY_KEY.size !== SOURCES.length) throw new Error('two sources of the registry share a key');

export function findSource(key: string): SourceDefinition | undefined {
  return BY_KEY.get(key);
}

/** The definition of a source; throws for an unknown key (listing the known ones). */
export function getSource(key: string): SourceDefinition {
  const source = BY_KEY.get(key);
  if (!source) throw new Error(`unknown source "${key}" (known: ${[...BY_KEY.keys()].join(', ')})`);
  return source;
}

export interface FileMatch {
  source: SourceDefinition;
  part: SourcePart;
}

const BY_FILE: ReadonlyMap<string, FileMatch> = new Map(
  SOURCES.flatMap((source) => source.parts.flatMap((part) => part.fileNames.map((name) => [name.toLowerCase(), { source, part }] as const))),
);

/** The source (and part) a file name belongs to, for `ingest --dir`; null when no source claims it. */
export function sourceForFile(fileName: string): FileMatch | null {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  // a gzip-compressed file (`hpd_violations.csv.gz`) belongs where the file it holds does
  return BY_FILE.get(base.toLowerCase().replace(/\.gz$/, '')) ?? null;
}

/** Source key for a file name, or null. */
export function sourceKeyForFile(fileName: string): string | null {
  return sourceForFile(fileName)?.source.key ?? null;
}
