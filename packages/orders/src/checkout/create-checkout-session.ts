import { hashToken, newId, newToken } from '@commerce/core';
import { type Database, inTransaction } from '@commerce/db';
import type { Kysely } from 'kysely';
import { quoteCart } from './quote.ts';
import type { CreateCheckoutSessionInput, CreatedCheckoutSession } from './schemas.ts';
import { replaceLines, toCheckoutSessionRead } from './session-store.ts';

export interface CreateCheckoutScope {
  organizationId: string;
  /** The store's checkout currency (settings `checkoutSettings.currency`). */
  currency: string;
  /** How long the session lives (CHECKOUT_SESSION_TTL_MINUTES); binding starts the clock again. */
  ttlMinutes: number;
  at: Date;
}

/**
 * Step 1: a session OPEN with the cart priced from the catalog and the
 * shipping options of its destination. Answers the `c1_` token once; only
 * its SHA-256 is stored.
 */
export async function createCheckoutSession(
  db: Kysely<Database>,
  scope: CreateCheckoutScope,
  input: CreateCheckoutSessionInput,
): Promise<CreatedCheckoutSession> {
  // An address names the destination; its country is the shipping country.
  const country = input.shippingAddress?.country ?? input.shippingCountry ?? null;
  const quote = await quoteCart(db, scope.organizationId, {
    lines: input.lines,
    country,
    requestedRateId: input.shippingRateId,
    currentRateId: null,
  });
  const token = newToken('checkout');
  return inTransaction(db, async (trx) => {
    const session = await trx
      .insertInto('checkout_sessions')
      .values({
        organization_id: scope.organizationId,
        id: newId('chk', scope.at),
        token_hash: hashToken(token),
        status: 'OPEN',
        currency: scope.currency,
        email: input.email ?? null,
        customer_name: input.customerName ?? null,
        customer_phone: input.customerPhone ?? null,
        shipping_country: country,
        shipping_address: input.shippingAddress ? JSON.stringify(input.shippingAddress) : null,
        shipping_rate_id: quote.shipping.selected?.id ?? null,
        shipping_rate_name: quote.shipping.selected?.name ?? null,
        subtotal_in_cents: quote.subtotalInCents,
        shipping_in_cents: quote.shippingInCents,
        tax_in_cents: 0,
        total_in_cents: quote.subtotalInCents + quote.shippingInCents,
        expires_at: new Date(scope.at.getTime() + scope.ttlMinutes * 60_000),
        created_at: scope.at,
        updated_at: scope.at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const lines = await replaceLines(trx, session, quote.lines, scope.at, () => newId('chl', scope.at));
    return { ...toCheckoutSessionRead(session, lines, quote.shipping, null), checkoutToken: token };
  });
}
