export { addressKey, companyKey, personKey } from './normalize';
export { buildPortfolios, CAUTION_BUILDINGS, type LinkKind, type Portfolio, type PortfolioLink, type Registration, type RegistrationContact } from './graph';
