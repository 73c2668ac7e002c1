export * from './acknowledge-retired-postage.ts';
export * from './cancel-prepared-shipment.ts';
export * from './carrier-check.ts';
export * from './close-cancellation.ts';
export * from './poll-cancellations.ts';
export * from './schemas.ts';
