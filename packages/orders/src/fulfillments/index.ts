export * from './create-direct-fulfillment.ts';
export * from './fulfillment-read.ts';
export * from './fulfillment-target.ts';
export * from './fulfillment-transitions.ts';
export * from './schemas.ts';
