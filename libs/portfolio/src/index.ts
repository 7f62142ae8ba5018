export * from './bbl-list';
export * from './portfolio-api.module';
export * from './analyze/portfolio-analysis';
export * from './export/csv-columns';
