export { addressKey, companyKey, personKey } from './normalize';
export { buildPortfolios, CAUTION_BUILDINGS, PortfolioGraph, type LinkKind, type Portfolio, type PortfolioLink, type Registration, type RegistrationContact } from './graph';
