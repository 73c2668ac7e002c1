export * from './address-read.ts';
export * from './manage-addresses.ts';
export * from './schemas.ts';
