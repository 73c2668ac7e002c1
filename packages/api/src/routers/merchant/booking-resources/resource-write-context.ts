import type { BookingWriteContext } from '@commerce/bookings';
import type { MerchantUser } from '@commerce/db';
import type { ApiContext } from '../../../context.ts';

/** The tenant, the merchant user and the request's instant of a bookings write. */
export function bookingWriteContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): BookingWriteContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}
