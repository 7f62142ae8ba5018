export * from './api-error';
export * from './envelope';
export * from './error-codes';
export * from './request-id';
