import { BoroughCode } from '@bhis/domain';

/** Property facts of one tax lot, from PLUTO. */
export interface PlutoBuildingFacts {
  kind: 'pluto_building';
  bbl: string;
  borough: BoroughCode;
  block: number;
  lot: number;
  /** Upper case, as PLUTO publishes it: `761 CLARENCE AVENUE`. */
  address: string | null;
  house_number: string | null;
  street_name: string | null;
  zipcode: string | null;
  residential_units: number | null;
  total_units: number | null;
  year_built: number | null;
  building_class: string | null;
  owner_name: string | null;
  latitude: number | null;
  longitude: number | null;
  num_buildings: number | null;
  num_floors: number | null;
}

/** One building under HPD jurisdiction: the BIN <-> BBL link and the legal unit count. */
export interface HpdBuildingFacts {
  kind: 'hpd_building';
  bbl: string;
  bin: number | null;
  hpd_building_id: number;
  /** LegalClassA + LegalClassB (null when both are blank). */
  legal_units: number | null;
  legal_class_a: number | null;
  legal_class_b: number | null;
  stories: number | null;
  lifecycle: string | null;
  /** `ManagementProgram`: PVT (private), NYCHA (public housing), 7A... */
  management_program: string | null;
  record_status: string | null;
  registration_id: number | null;
  house_number: string | null;
  street_name: string | null;
  zipcode: string | null;
}

/** A multiple dwelling registration (its owner names come from the contacts). */
export interface RegistrationFacts {
  kind: 'registration';
  bbl: string;
  bin: number | null;
  registration_id: number;
  hpd_building_id: number | null;
  last_registration_date: string | null;
  registration_end_date: string | null;
}

/** One contact of a registration (no BBL: join through the registration id). */
export interface RegistrationContactFacts {
  kind: 'registration_contact';
  registration_id: number;
  contact_id: number;
  /** CorporateOwner, IndividualOwner, JointOwner, HeadOfficer, Agent, SiteManager... */
  contact_type: string | null;
  contact_description: string | null;
  corporation_name: string | null;
  person_name: string | null;
  /** corporation_name, else the person's name: what an owner lookup shows. */
  name: string | null;
  business_address: string | null;
}

export type SourceFacts = PlutoBuildingFacts | HpdBuildingFacts | RegistrationFacts | RegistrationContactFacts;
export type FactsKind = SourceFacts['kind'];
export const FACTS_KINDS = ['pluto_building', 'hpd_building', 'registration', 'registration_contact'] as const satisfies readonly FactsKind[];

/** Contact types whose name is the owner of record. */
export const OWNER_CONTACT_TYPES: readonly string[] = ['CorporateOwner', 'IndividualOwner', 'JointOwner'];
