export * from './connection';
export * from './contracts';
export * from './worker';
