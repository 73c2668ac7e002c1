export * from './create-payment-provider.ts';
export * from './provider.ts';
export * from './sandbox-provider.ts';
export * from './stripe-provider.ts';
export * from './webhooks.ts';
