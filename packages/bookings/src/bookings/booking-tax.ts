import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { TaxProvider } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { BookingClockContext } from '../context.ts';

/**
 * A booking's tax, shared by hold conversion and merchant creation:
 * quoted from the orders area's provider before the operation's transaction
 * (a provider call is a read without effect), then frozen in it on the
 * amounts it was quoted on.
 */

/** The orders area's tax provider and the store's setting, when the route has them. */
export interface BookingTax {
  provider: TaxProvider;
  pricesIncludeTax: boolean;
}

/** The tax quoted before the transaction, for the amounts it was quoted on. */
export interface QuotedTax {
  subtotalInCents: number;
  deliveryFeeInCents: number;
  taxInCents: number;
  included: boolean;
}

const businessCountrySchema = z
  .object({ address: z.object({ country: z.string().regex(/^[A-Z]{2}$/) }).loose() })
  .loose();

/** Where a booking is taxed: the delivery's country, else the tenant's business country, else null. */
async function taxCountry(
  db: Kysely<Database>,
  organizationId: string,
  deliveryCountry: string | null,
): Promise<string | null> {
  if (deliveryCountry !== null) return deliveryCountry;
  const settings = await db
    .selectFrom('organization_settings')
    .select('business_profile')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  const profile = businessCountrySchema.safeParse(settings?.business_profile);
  return profile.success ? profile.data.address.country : null;
}

/** Whether there is a provider to ask: none configured (`TAX_PROVIDER=none`) quotes nothing. */
export function hasTaxProvider(tax: BookingTax | undefined): tax is BookingTax {
  return tax !== undefined && tax.provider.kind !== 'none';
}

/**
 * Quotes the tax of a booking's amounts (a provider call: before the
 * transaction), in the delivery's country, else the business country. Null
 * without a provider.
 */
export async function quoteBookingTax(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  tax: BookingTax | undefined,
  amounts: {
    currency: string;
    subtotalInCents: number;
    deliveryFeeInCents: number;
    /** The delivered address's country; null for pickup. */
    deliveryCountry: string | null;
  },
): Promise<QuotedTax | null> {
  if (!hasTaxProvider(tax)) return null;
  const quote = await tax.provider.quote({
    organizationId: ctx.organizationId,
    currency: amounts.currency,
    country: await taxCountry(db, ctx.organizationId, amounts.deliveryCountry),
    subtotalInCents: amounts.subtotalInCents,
    shippingInCents: amounts.deliveryFeeInCents,
    pricesIncludeTax: tax.pricesIncludeTax,
  });
  return {
    subtotalInCents: amounts.subtotalInCents,
    deliveryFeeInCents: amounts.deliveryFeeInCents,
    taxInCents: quote.taxInCents,
    included: tax.pricesIncludeTax,
  };
}

/**
 * The frozen tax and total of a subtotal and delivery fee: the quoted tax,
 * added unless the prices include it (recorded without adding it, as
 * checkout does). A quote made on other amounts is `409 STALE_STATE`: the
 * price changed between the quote and the transaction, so a retry quotes again.
 */
export function totalWithTax(
  subtotalInCents: number,
  deliveryFeeInCents: number,
  tax: QuotedTax | null,
): { taxInCents: number; totalInCents: number } {
  if (tax && (tax.subtotalInCents !== subtotalInCents || tax.deliveryFeeInCents !== deliveryFeeInCents))
    throw new AppError('STALE_STATE', 'The price changed while the tax was computed; retry');
  const taxInCents = tax?.taxInCents ?? 0;
  return {
    taxInCents,
    totalInCents: subtotalInCents + deliveryFeeInCents + (tax?.included ? 0 : taxInCents),
  };
}
