export * from './capture-signup.ts';
export * from './list-signups.ts';
export * from './schemas.ts';
