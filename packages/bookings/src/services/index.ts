export * from './list-services.ts';
export * from './schemas.ts';
export { getPublicService, getService } from './service-read.ts';
export * from './write-service.ts';
