import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { type BookingTax, hasTaxProvider, type QuotedTax, quoteBookingTax } from '../booking-tax.ts';
import type { BookingNotifyContext } from '../notify.ts';
import { freezeAmounts } from './conversion-amounts.ts';
import {
  type ConversionDeliverySnapshot,
  deliveryModeOf,
  type HoldRow,
  holdDelivery,
  holdSnapshotSchema,
  storedCheckoutSchema,
} from './hold-terms.ts';

/**
 * The tax of a conversion, quoted before its transaction like every
 * provider call (a read without effect): on the price the hold would convert at now, for the
 * delivery's country, else the business country. Null when there is nothing
 * to quote (no provider, a hold that will not convert); the transaction checks
 * the price it freezes is the one quoted.
 */
export async function quoteConversionTax(
  db: Kysely<Database>,
  ctx: BookingNotifyContext,
  hold: HoldRow,
  currency: string,
  tax: BookingTax | undefined,
): Promise<QuotedTax | null> {
  if (!hasTaxProvider(tax)) return null;
  const service = await db
    .selectFrom('booking_services')
    .selectAll()
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', hold.service_id)
    .executeTakeFirst();
  const checkout = storedCheckoutSchema.safeParse(service?.checkout);
  const snapshot = holdSnapshotSchema.safeParse(hold.snapshot);
  if (!service || !checkout.success || !snapshot.success) return null;
  let delivery: ConversionDeliverySnapshot | null;
  try {
    delivery = holdDelivery(hold.snapshot, deliveryModeOf(service));
  } catch {
    return null;
  }
  const amounts = freezeAmounts(service, hold, snapshot.data, delivery, checkout.data, currency);
  if (amounts === null) return null;
  return quoteBookingTax(db, ctx, tax, {
    currency,
    subtotalInCents: amounts.subtotalInCents,
    deliveryFeeInCents: amounts.deliveryFeeInCents,
    deliveryCountry: delivery?.address?.country ?? null,
  });
}
