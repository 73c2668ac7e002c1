export * from './grant-membership.ts';
export * from './permission-presets.ts';
export * from './remove-membership.ts';
export * from './schemas.ts';
export * from './update-membership.ts';
