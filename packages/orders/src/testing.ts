/** Seeding helpers for tests and benches of other packages (`@commerce/orders/testing`). */
export * from './warehouse/test-support.ts';
