/**
 * Bookings (CONTRACT-bookings.md, section 14): booking services, resources,
 * availability, holds and bookings. Pure services over Kysely, like catalog
 * and orders; the tRPC router in @commerce/api exposes them.
 */

export * from './availability/schemas.ts';
export * from './capacity/index.ts';
export type * from './context.ts';
export * from './resources/index.ts';
export * from './services/index.ts';
export * from './time/zone.ts';
