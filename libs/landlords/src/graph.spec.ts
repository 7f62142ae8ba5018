import { createReadStream } from 'node:fs';
import path from 'node:path';
import { getSource, parseSource, type SourceFacts } from '@bhis/sources';
import { buildPortfolios, CAUTION_BUILDINGS, type Registration, type RegistrationContact } from './graph';

/** Real rows as HPD publishes them (../shared/fixtures/nyc-open-data, beside the repository). */
const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/nyc-open-data');

async function factsOf(source: string, file: string): Promise<SourceFacts[]> {
  const facts: SourceFacts[] = [];
  for await (const record of parseSource(getSource(source), createReadStream(path.join(FIXTURES, file)))) {
    if (record.outcome.kind === 'ok') facts.push(...record.outcome.facts);
  }
  return facts;
}

/** The contacts as the ingest stores them: the mapping of the contacts source, not a copy of it. */
async function realContacts(): Promise<RegistrationContact[]> {
  return (await factsOf('hpd_registration_contacts', 'hpd_contacts.csv')).flatMap((f) =>
    f.kind === 'registration_contact'
      ? [{ registrationId: f.registration_id, contactType: f.contact_type, name: f.name, businessAddress: f.business_address }]
      : [],
  );
}

const reg = (registrationId: number, bbl = `10000${String(registrationId).padStart(5, '0')}`): Registration => ({ registrationId, bbl });
const contact = (registrationId: number, contactType: string, name: string | null, businessAddress: string | null): RegistrationContact => ({ registrationId, contactType, name, businessAddress });

describe('buildPortfolios', () => {
  it('keeps the unrelated owners of real registration contacts apart, one portfolio each', async () => {
    const contacts = await realContacts();
    const ids = [...new Set(contacts.map((c) => c.registrationId))];
    expect(ids.length).toBe(15);
    const portfolios = buildPortfolios(ids.map((id) => reg(id)), contacts);
    expect(portfolios).toHaveLength(ids.length);
    expect(portfolios.every((p) => p.registrationIds.length === 1 && p.links.length === 0 && p.caution === null)).toBe(true);
  });

  it('joins a second registration of a real owner through its head officer, its office, or its company', async () => {
    const contacts = await realContacts();
    const ids = [...new Set(contacts.map((c) => c.registrationId))];
    // another building of GEORGE RIGAS (head officer of ZORIANO ASSOCIATES INC), filed with his office spelt otherwise
    const rigas = [contact(900001, 'CorporateOwner', '26 VAN BRUNT LLC', '400 COURT STREET BROOKLYN NY 11231'), contact(900001, 'HeadOfficer', 'George Rigas', '400 COURT ST BKLYN NY 11231')];
    // another LLC of ANCHOR INDUSTRIES' office, 215-11 67TH AVENUE, with a new head officer
    const anchor = [contact(900002, 'CorporateOwner', 'BAYSIDE 12 LLC', '215-11 67 AVE OAKLAND GARDENS NY 11364'), contact(900002, 'HeadOfficer', 'MARK LEE', '215-11 67 AVE OAKLAND GARDENS NY 11364')];
    // the same company name on another building
    const metis = [contact(900003, 'CorporateOwner', 'Metis Realty L.L.C.', null)];
    const portfolios = buildPortfolios([...ids, 900001, 900002, 900003].map((id) => reg(id)), [...contacts, ...rigas, ...anchor, ...metis]);
    const of = (id: number) => portfolios.find((p) => p.registrationIds.includes(id))!;
    expect(of(900002).registrationIds).toEqual([357451, 900002]);
    expect(of(900002).id).toBe('pf_357451');
    expect(of(900002).links.map((l) => [l.kind, l.key])).toEqual([['address', '215-11 67 11364']]);
    expect(of(900003).registrationIds).toEqual([348023, 900003]);
    expect(of(900003).links.map((l) => l.kind)).toEqual(['company']);
    // a head officer is a name where they do business: GEORGE RIGAS of 11231 in both
    expect(of(900001).registrationIds).toEqual([331931, 900001]);
    expect(of(900001).links.map((l) => [l.kind, l.key])).toEqual([['person', 'GEORGE RIGAS 11231']]);
  });

  it('never links through agents, managing agents or site managers: a management company is not an owner', () => {
    const manager = (id: number) => [
      contact(id, 'CorporateOwner', `${id} MAIN LLC`, `${id} MAIN STREET BRONX NY 10451`),
      contact(id, 'HeadOfficer', `OWNER${String.fromCharCode(65 + (id % 26))} PERSON${id}`, `${id} MAIN STREET BRONX NY 10451`),
      contact(id, 'Agent', 'BIG MANAGEMENT CORP', '1 BROADWAY NEW YORK NY 10004'),
      contact(id, 'SiteManager', 'ANN RUSSELL', '1 BROADWAY NEW YORK NY 10004'),
      contact(id, 'Officer', 'ANN RUSSELL', '1 BROADWAY NEW YORK NY 10004'),
    ];
    const portfolios = buildPortfolios([1, 2, 3].map((id) => reg(id)), [1, 2, 3].flatMap(manager));
    expect(portfolios.map((p) => p.registrationIds)).toEqual([[1], [2], [3]]);
  });

  it('never links through placeholders or two people of one name who do business in different places', () => {
    const portfolios = buildPortfolios(
      [1, 2, 3, 4].map((id) => reg(id)),
      [
        contact(1, 'CorporateOwner', 'NA', 'SAME'),
        contact(2, 'CorporateOwner', 'NA', 'SAME'),
        contact(3, 'HeadOfficer', 'JOHN SMITH', '10 MAIN STREET BRONX NY 10451'),
        contact(4, 'HeadOfficer', 'JOHN SMITH', '99 OCEAN AVENUE BROOKLYN NY 11226'),
        contact(1, 'IndividualOwner', 'SAME', '0 SAME 00000'),
      ],
    );
    expect(portfolios.map((p) => p.registrationIds)).toEqual([[1], [2], [3], [4]]);
  });

  it('merges chains (and the registrations of one lot) into one component whose id is its lowest registration, and ignores registrations no longer current', () => {
    const portfolios = buildPortfolios(
      [reg(30, '3000010001'), reg(20, '3000010002'), reg(10, '3000010003'), reg(11, '3000010004'), reg(12, '3000010004')],
      [
        contact(30, 'CorporateOwner', 'A LLC', '5 ELM STREET BROOKLYN NY 11201'),
        contact(20, 'HeadOfficer', 'MARY JONES', '5 ELM ST BROOKLYN NY 11201'),
        contact(20, 'CorporateOwner', 'B LLC', '7 OAK STREET BROOKLYN NY 11205'),
        contact(10, 'HeadOfficer', 'Mary K. Jones', '7 OAK ST BKLYN NY 11205'),
        contact(11, 'CorporateOwner', 'A LLC', null),
        contact(99, 'CorporateOwner', 'A LLC', '5 ELM STREET BROOKLYN NY 11201'),
      ],
    );
    expect(portfolios).toHaveLength(1);
    // 12 has no contact that links: it is on the lot of 11
    expect(portfolios[0]).toMatchObject({ id: 'pf_10', registrationIds: [10, 11, 12, 20, 30], bbls: ['3000010001', '3000010002', '3000010003', '3000010004'], caution: null });
    expect(portfolios[0]!.links.find((l) => l.kind === 'company')).toEqual({ kind: 'company', key: 'A', shown: 'A LLC', registrationIds: [11, 30] });
  });

  it('cautions against a portfolio too large to be one owner, naming what joins it', () => {
    const n = CAUTION_BUILDINGS;
    const ids = Array.from({ length: n }, (_, i) => i + 1);
    const portfolios = buildPortfolios(
      ids.map((id) => reg(id)),
      ids.map((id) => contact(id, 'CorporateOwner', `${id} LLC`, '770 LEXINGTON AVENUE NEW YORK NY 10065')),
    );
    expect(portfolios).toHaveLength(1);
    expect(portfolios[0]!.caution).toMatch(new RegExp(`^${n} buildings in one portfolio.*"770 LEXINGTON AVENUE NEW YORK NY 10065" alone joins ${n} registrations`));
    expect(buildPortfolios(ids.slice(1).map((id) => reg(id)), ids.slice(1).map((id) => contact(id, 'CorporateOwner', `${id} LLC`, '770 LEXINGTON AVENUE NEW YORK NY 10065')))[0]!.caution).toBeNull();
  });
});
