export * from './customer-orders.ts';
export * from './schemas.ts';
