export { createDistanceProvider } from './create-distance-provider.ts';
export * from './distance-provider.ts';
export { addressLine, createGoogleDistanceProvider, parseDistanceMatrix } from './google-distance.ts';
export { quoteDelivery } from './quote-delivery.ts';
export * from './schemas.ts';
