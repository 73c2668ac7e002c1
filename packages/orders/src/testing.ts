/** Seeding helpers for tests and benches of other packages (`@commerce/orders/testing`). */

export { SHIP_FROM, SHIP_TO } from './shipping-label/test-support.ts';
export * from './warehouse/test-support.ts';
