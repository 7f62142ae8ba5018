import { addressKey, companyKey, personKey } from './normalize';

/** One row of the registration contacts, as the contacts table keeps it. */
export interface RegistrationContact {
  registrationId: number;
  /** HPD's contact type: CorporateOwner, IndividualOwner, JointOwner, HeadOfficer, Officer, Shareholder, Agent, SiteManager, Lessee */
  contactType: string | null;
  /** the company's name, or the person's (first, middle, last) */
  name: string | null;
  /** house number, street, apartment, city, state and ZIP, space-separated */
  businessAddress: string | null;
}

export interface Registration {
  registrationId: number;
  bbl: string;
}

export type LinkKind = 'company' | 'person' | 'address';

/** A name or address that joins the registrations of one portfolio. */
export interface PortfolioLink {
  kind: LinkKind;
  key: string;
  /** how the first registration that names it spells it */
  shown: string;
  registrationIds: number[];
}

export interface Portfolio {
  /** `pf_` + the portfolio's oldest (lowest) registration id: stable while that registration stays current */
  id: string;
  registrationIds: number[];
  bbls: string[];
  /** the names and addresses shared by two or more of its registrations, most registrations first */
  links: PortfolioLink[];
  /** why the portfolio is unlikely to be one owner, when it is */
  caution: string | null;
}

/**
 * Roles that speak for the owner. Agents, managing agents and site managers do not: a management
 * company manages for many unrelated owners, and linking through it would merge them. Officers and
 * shareholders name part-owners of a company (a co-op's shareholders), not who controls it.
 */
const OWNER_ROLES = new Set(['CorporateOwner', 'IndividualOwner', 'JointOwner', 'HeadOfficer']);
const PERSON_ROLES = new Set(['IndividualOwner', 'HeadOfficer', 'JointOwner']);

/** A portfolio of this many buildings is flagged: more than the largest private owners hold, most likely an office that serves many. */
export const CAUTION_BUILDINGS = 1000;

class DisjointSets {
  private readonly parent = new Map<number, number>();

  find(x: number): number {
    let root = this.parent.get(x) ?? x;
    if (root === x) return x;
    root = this.find(root);
    this.parent.set(x, root);
    return root;
  }

  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    // the lower id is the root: a component's root is its lowest registration id
    if (ra < rb) this.parent.set(rb, ra);
    else if (rb < ra) this.parent.set(ra, rb);
  }
}

/** The keys one contact links by, with how it spells them. */
function contactKeys(contact: RegistrationContact): { kind: LinkKind; key: string; shown: string }[] {
  const role = contact.contactType ?? '';
  if (!OWNER_ROLES.has(role)) return [];
  const keys: { kind: LinkKind; key: string; shown: string }[] = [];
  const address = addressKey(contact.businessAddress);
  if (address) keys.push({ kind: 'address', key: address, shown: contact.businessAddress ?? '' });
  const company = role === 'CorporateOwner' ? companyKey(contact.name) : null;
  if (company) keys.push({ kind: 'company', key: company, shown: contact.name ?? '' });
  // a person is a name where they do business: two owners called JOHN SMITH are two people unless their ZIP is one
  const person = PERSON_ROLES.has(role) ? personKey(contact.name) : null;
  const zip = address?.split(' ').at(-1);
  if (person && zip) keys.push({ kind: 'person', key: `${person} ${zip}`, shown: contact.name ?? '' });
  return keys;
}

/**
 * The portfolios of the current registrations: registrations joined by a shared owner company, owner
 * or head officer (name and ZIP), owner business address, or lot, and their connected components.
 * Every registration is in exactly one portfolio (most alone). Rows are added one by one (a city's
 * contacts are read in pages), registrations first.
 */
export class PortfolioGraph {
  private readonly current = new Map<number, string>();
  private readonly byKey = new Map<string, { kind: LinkKind; key: string; shown: string; ids: Set<number> }>();
  private readonly lots = new Map<string, number>();
  private readonly sets = new DisjointSets();

  addRegistration({ registrationId, bbl }: Registration): void {
    this.current.set(registrationId, bbl);
    // the registrations of one lot have one owner
    const other = this.lots.get(bbl);
    if (other === undefined) this.lots.set(bbl, registrationId);
    else this.sets.union(other, registrationId);
  }

  addContact(contact: RegistrationContact): void {
    if (!this.current.has(contact.registrationId)) return;
    for (const { kind, key, shown } of contactKeys(contact)) {
      const id = `${kind}:${key}`;
      const link = this.byKey.get(id) ?? { kind, key, shown, ids: new Set<number>() };
      link.ids.add(contact.registrationId);
      this.byKey.set(id, link);
    }
  }

  portfolios(): Portfolio[] {
    const shared: PortfolioLink[] = [];
    for (const { kind, key, shown, ids } of this.byKey.values()) {
      if (ids.size < 2) continue;
      const registrationIds = [...ids].sort((a, b) => a - b);
      for (const id of registrationIds) this.sets.union(registrationIds[0] ?? id, id);
      shared.push({ kind, key, shown, registrationIds });
    }
    const members = new Map<number, number[]>();
    for (const id of [...this.current.keys()].sort((a, b) => a - b)) {
      const root = this.sets.find(id);
      const list = members.get(root) ?? [];
      list.push(id);
      members.set(root, list);
    }
    const linksOf = new Map<number, PortfolioLink[]>();
    for (const link of shared) {
      const root = this.sets.find(link.registrationIds[0] ?? 0);
      const list = linksOf.get(root) ?? [];
      list.push(link);
      linksOf.set(root, list);
    }
    return [...members.entries()].map(([root, ids]) => {
      const bbls = [...new Set(ids.map((id) => this.current.get(id) ?? ''))].sort();
      const links = (linksOf.get(root) ?? []).sort((a, b) => b.registrationIds.length - a.registrationIds.length || a.key.localeCompare(b.key));
      return { id: `pf_${root}`, registrationIds: ids, bbls, links, caution: caution(bbls.length, links) };
    });
  }
}

/** The portfolios of these registrations and contacts (PortfolioGraph, all at once). */
export function buildPortfolios(registrations: readonly Registration[], contacts: readonly RegistrationContact[]): Portfolio[] {
  const graph = new PortfolioGraph();
  for (const registration of registrations) graph.addRegistration(registration);
  for (const contact of contacts) graph.addContact(contact);
  return graph.portfolios();
}

function caution(buildings: number, links: readonly PortfolioLink[]): string | null {
  if (buildings < CAUTION_BUILDINGS) return null;
  const widest = links[0];
  return `${buildings} buildings in one portfolio, more than one owner is likely to hold: ${widest ? `the ${widest.kind} "${widest.shown}" alone joins ${widest.registrationIds.length} registrations, ` : ''}as an office that files for many owners would.`;
}
