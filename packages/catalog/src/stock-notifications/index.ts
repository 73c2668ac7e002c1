export * from './back-in-stock.ts';
export * from './schemas.ts';
export * from './subscribe.ts';
export * from './unsubscribe.ts';
