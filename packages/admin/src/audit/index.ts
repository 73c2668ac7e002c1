export * from './export-audit-logs.ts';
export * from './filters.ts';
export * from './list-audit-logs.ts';
export * from './schemas.ts';
