import type { AuditActor } from '@commerce/db';

/** The tenant and the instant of one bookings operation (`at` from the request's clock). */
export interface BookingClockContext {
  organizationId: string;
  at: Date;
}

/** A merchant change: the tenant, who makes it, and when. */
export interface BookingWriteContext extends BookingClockContext {
  actor: AuditActor;
}
