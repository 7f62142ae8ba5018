export * from './api-key';
export * from './bbl';
export * from './boroughs';
export * from './grades';
export * from './scopes';
export * from './events';
export * from './address';
