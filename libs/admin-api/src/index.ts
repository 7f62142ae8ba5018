export * from './admin.module';
export * from './queue-dashboard';
