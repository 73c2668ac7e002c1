import { AppError, newId } from '@commerce/core';
import { type Database, inTransaction } from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import type { Kysely } from 'kysely';
import { quoteCart } from './quote.ts';
import type { CheckoutSessionRead, RepriceCheckoutSessionInput } from './schemas.ts';
import {
  assertNotBookingSession,
  findSessionByToken,
  linesAsInput,
  replaceLines,
  sessionLines,
  toCheckoutSessionRead,
} from './session-store.ts';
import { releaseReservations } from './stock.ts';

export interface CheckoutScope {
  organizationId: string;
  at: Date;
  /** For the emails a step may queue (back-in-stock when it releases stock, the order confirmation). */
  email: CustomerEmailConfig;
}

/**
 * Step 2: applies the changes sent (a new cart, contact, destination, rate;
 * null clears) and prices everything again from the catalog. Allowed while
 * OPEN or BOUND; a BOUND session goes back to OPEN and releases its stock, so
 * it must be bound again. Later states are 409 INVALID_STATE_TRANSITION.
 */
export async function repriceCheckoutSession(
  db: Kysely<Database>,
  scope: CheckoutScope,
  input: RepriceCheckoutSessionInput,
): Promise<CheckoutSessionRead> {
  return inTransaction(db, async (trx) => {
    const session = await findSessionByToken(trx, input.token, {
      organizationId: scope.organizationId,
      at: scope.at,
      lock: true,
    });
    assertNotBookingSession(session, 'repriced');
    if (session.status !== 'OPEN' && session.status !== 'BOUND')
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        `A ${session.status} checkout session cannot be repriced`,
      );
    // A new address names the destination (its country is the shipping country); null clears it.
    const country = input.shippingAddress
      ? input.shippingAddress.country
      : input.shippingCountry !== undefined
        ? input.shippingCountry
        : session.shipping_country;
    const address =
      input.shippingAddress !== undefined
        ? input.shippingAddress
        : // A country other than the kept address's leaves that address behind.
          session.shipping_address !== null && country !== session.shipping_address.country
          ? null
          : session.shipping_address;
    const quote = await quoteCart(trx, scope.organizationId, {
      lines: input.lines ?? linesAsInput(await sessionLines(trx, session)),
      country,
      requestedRateId: input.shippingRateId ?? undefined,
      currentRateId: input.shippingRateId === null ? null : session.shipping_rate_id,
    });
    if (session.status === 'BOUND')
      await releaseReservations(trx, { ...scope, checkoutSessionId: session.id });
    const updated = await trx
      .updateTable('checkout_sessions')
      .set({
        status: 'OPEN',
        email: input.email !== undefined ? input.email : session.email,
        customer_name: input.customerName !== undefined ? input.customerName : session.customer_name,
        customer_phone: input.customerPhone !== undefined ? input.customerPhone : session.customer_phone,
        shipping_country: country,
        shipping_address: address === null ? null : JSON.stringify(address),
        shipping_rate_id: quote.shipping.selected?.id ?? null,
        shipping_rate_name: quote.shipping.selected?.name ?? null,
        subtotal_in_cents: quote.subtotalInCents,
        shipping_in_cents: quote.shippingInCents,
        tax_in_cents: 0,
        tax_included: false,
        total_in_cents: quote.subtotalInCents + quote.shippingInCents,
        bound_at: null,
        updated_at: scope.at,
      })
      .where('organization_id', '=', session.organization_id)
      .where('id', '=', session.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const lines = await replaceLines(trx, updated, quote.lines, scope.at, () => newId('chl', scope.at));
    return toCheckoutSessionRead(updated, lines, quote.shipping, null);
  });
}
