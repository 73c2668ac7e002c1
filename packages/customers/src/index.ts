export * from './accounts/upsert-verified-customer.ts';
export * from './addresses/index.ts';
export * from './maintenance/housekeeping.ts';
export * from './maintenance/prune-customer-auth.ts';
export * from './orders/index.ts';
export * from './profile/index.ts';
export * from './sessions/index.ts';
export * from './sign-in/index.ts';
