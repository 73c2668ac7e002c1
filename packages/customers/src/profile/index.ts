export * from './get-profile.ts';
export * from './schemas.ts';
export * from './update-profile.ts';
