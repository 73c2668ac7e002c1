export * from './recommend-package.ts';
export * from './recommend-shipping-package.ts';
export * from './schemas.ts';
