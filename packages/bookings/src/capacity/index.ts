export * from './capacity-lock.ts';
export * from './claims.ts';
export * from './live-claims.ts';
