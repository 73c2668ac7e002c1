export * from './challenges.ts';
export * from './request-sign-in.ts';
export * from './schemas.ts';
export * from './verify-sign-in.ts';
