export * from './boolean-query.ts';
export * from './clock.ts';
export * from './config.ts';
export * from './errors.ts';
export * from './ids.ts';
export * from './pagination.ts';
export * from './periodic.ts';
export * from './tokens.ts';
