export * from './ingest-counts';
export * from './ingest-producer';
export * from './ingest-runs';
export * from './scoring-producer';
export * from './scoring-runs';
export * from './source-status';
