export * from './create-return.ts';
export * from './customer-orders.ts';
export * from './eligibility.ts';
export * from './list-returns.ts';
export * from './move-return.ts';
export * from './return-read.ts';
export * from './schemas.ts';
export * from './transitions.ts';
