import type { BookingNotifyContext } from '../notify.ts';

/** Who converts: the tenant, the instant, the email configuration, and a signed-in customer if any. */
export interface ConvertContext extends BookingNotifyContext {
  /** A valid customer session of the tenant: links the booking (and says `CUSTOMER` in its history). */
  customerId?: string | null;
}
