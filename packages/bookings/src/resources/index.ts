export * from './blackouts.ts';
export * from './list-resources.ts';
export { getResource, type ResourceRow, toResourceRead } from './resource-read.ts';
export * from './schemas.ts';
export * from './write-resource.ts';
