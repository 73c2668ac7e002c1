export * from './capacity-lock.ts';
export * from './check-capacity.ts';
export * from './claims.ts';
export * from './live-claims.ts';
