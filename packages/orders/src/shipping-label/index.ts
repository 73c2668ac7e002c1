export * from './classify-label.ts';
export * from './funding.ts';
export * from './label-addresses.ts';
export * from './label-artifacts.ts';
export * from './quote-fingerprint.ts';
export * from './quote-shipping-label.ts';
export * from './schemas.ts';
