export * from './export-warehouse-csv.ts';
export * from './list-warehouse-outputs.ts';
export * from './print-label-batch.ts';
export * from './schemas.ts';
export { fileStamp } from './warehouse-selection.ts';
