import { AppError, newId, type ValidationIssue } from '@commerce/core';
import { type Database, inTransaction } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { TaxProvider } from '../tax/tax-provider.ts';
import { type Quote, quoteCart } from './quote.ts';
import type { CheckoutScope } from './reprice-checkout-session.ts';
import type { BindCheckoutSessionInput, CheckoutSessionRead } from './schemas.ts';
import {
  assertNotBookingSession,
  findSessionByToken,
  linesAsInput,
  replaceLines,
  sessionLines,
  toCheckoutSessionRead,
} from './session-store.ts';
import { releaseReservations, reserveStock } from './stock.ts';

export interface BindScope extends CheckoutScope {
  tax: TaxProvider;
  /** Settings `checkoutSettings.taxIncludedInPrices`: prices already hold the tax, which is recorded, not added. */
  taxIncludedInPrices: boolean;
  /** CHECKOUT_HOLD_MINUTES: a bound session lives this long from its first bind, whatever the rebinds. */
  holdMinutes: number;
  /**
   * Who binds: the SHA-256 key of tenant and client address (as the rate
   * limiter keys it), and CHECKOUT_MAX_HELD_UNITS_PER_CLIENT.
   */
  client: { key: string; maxHeldUnits: number };
}

/**
 * Step 3: freezes the server-authoritative total and reserves the stock.
 *
 * The cart is priced again from the catalog; if any price or the shipping
 * fee differs from the session's last quote, the new quote is saved and the
 * answer is 409 STALE_STATE, so a shopper never binds a total they were not
 * shown. The tax provider is asked before the transaction (no provider I/O
 * inside one). In the transaction the session is locked and must not have
 * changed meanwhile (409 STALE_STATE), the tracked variants are locked in id
 * order and reserved (409 INSUFFICIENT_STOCK, all or nothing; 429 when the
 * binding client would hold more than its cap), and the session becomes
 * BOUND with its totals frozen, until `holdMinutes` after its first bind.
 * Binding a BOUND session again releases its stock first (same transaction),
 * so it is safe to retry, but never extends the hold. With prices that include
 * tax, the tax they hold is recorded and the total stays subtotal + shipping.
 */
export async function bindCheckoutSession(
  db: Kysely<Database>,
  scope: BindScope,
  input: BindCheckoutSessionInput,
): Promise<CheckoutSessionRead> {
  const found = await findSessionByToken(db, input.token, {
    organizationId: scope.organizationId,
    at: scope.at,
  });
  assertNotBookingSession(found, 'bound');
  assertBindable(found.status);
  const issues: ValidationIssue[] = [];
  if (!found.email) issues.push({ path: 'email', message: 'is required to bind: set it with reprice' });
  if (!found.customer_name)
    issues.push({ path: 'customerName', message: 'is required to bind: set it with reprice' });
  const quote = await quoteCart(db, scope.organizationId, {
    lines: linesAsInput(await sessionLines(db, found)),
    country: found.shipping_country,
    requestedRateId: input.shippingRateId,
    currentRateId: found.shipping_rate_id,
  }).catch((error: unknown) => {
    // A line that stopped being sellable since the last quote: the cart changed under the shopper.
    if (!(error instanceof AppError) || error.code !== 'VALIDATION_FAILED') throw error;
    const lineIssues = ((error.details?.issues as ValidationIssue[] | undefined) ?? []).filter((issue) =>
      issue.path.startsWith('lines.'),
    );
    if (lineIssues.length > 0)
      throw new AppError('STALE_STATE', 'The cart changed since it was priced; reprice it', {
        issues: lineIssues,
      });
    throw error;
  });
  if (quote.shipping.required && !found.shipping_country)
    issues.push({ path: 'shippingCountry', message: 'is required to bind: the store ships its orders' });
  else if (quote.shipping.required && !quote.shipping.selected)
    issues.push({ path: 'shippingCountry', message: 'has no shipping option for this cart' });
  if (issues.length > 0) throw AppError.validation(issues);

  const { taxInCents } = await scope.tax.quote({
    organizationId: scope.organizationId,
    currency: found.currency,
    country: quote.shipping.required ? found.shipping_country : null,
    subtotalInCents: quote.subtotalInCents,
    shippingInCents: quote.shippingInCents,
    pricesIncludeTax: scope.taxIncludedInPrices,
  });
  const tax = { inCents: taxInCents, included: scope.taxIncludedInPrices };

  const outcome = await inTransaction(db, async (trx) => {
    const session = await findSessionByToken(trx, input.token, {
      organizationId: scope.organizationId,
      at: scope.at,
      lock: true,
    });
    assertBindable(session.status);
    if (session.updated_at.getTime() !== found.updated_at.getTime())
      throw new AppError('STALE_STATE', 'The checkout session changed while binding; retry');
    const storedLines = await sessionLines(trx, session);
    if (session.status === 'BOUND')
      await releaseReservations(trx, { ...scope, checkoutSessionId: session.id });
    // A rate the shopper picks in this request is seen; one the server had to change is not.
    const sameRate = (quote.shipping.selected?.id ?? null) === session.shipping_rate_id;
    const isShippingStale = sameRate
      ? quote.shippingInCents !== session.shipping_in_cents
      : input.shippingRateId === undefined;
    const isStale =
      isShippingStale ||
      quote.lines.length !== storedLines.length ||
      quote.lines.some((line, index) => line.unitPriceInCents !== storedLines[index]!.unit_price_in_cents);
    if (isStale) {
      const reopened = await saveQuote(trx, session, quote, scope.at, 'OPEN', {
        inCents: 0,
        included: false,
      });
      await replaceLines(trx, reopened, quote.lines, scope.at, () => newId('chl', scope.at));
      return { stale: true as const };
    }
    await reserveStock(
      trx,
      {
        ...scope,
        checkoutSessionId: session.id,
        cap: {
          clientKey: scope.client.key,
          maxUnits: scope.client.maxHeldUnits,
          holdMinutes: scope.holdMinutes,
        },
      },
      quote.lines,
    );
    const firstBoundAt = session.first_bound_at ?? scope.at;
    const bound = await saveQuote(trx, session, quote, scope.at, 'BOUND', tax, {
      firstBoundAt,
      expiresAt: new Date(firstBoundAt.getTime() + scope.holdMinutes * 60_000),
      clientKey: scope.client.key,
    });
    const lines = await replaceLines(trx, bound, quote.lines, scope.at, () => newId('chl', scope.at));
    return { stale: false as const, read: toCheckoutSessionRead(bound, lines, quote.shipping, null) };
  });
  if (outcome.stale)
    throw new AppError(
      'STALE_STATE',
      'Prices changed since the cart was last priced; review the new totals and bind again',
    );
  return outcome.read;
}

function assertBindable(status: string): void {
  if (status !== 'OPEN' && status !== 'BOUND')
    throw new AppError('INVALID_STATE_TRANSITION', `A ${status} checkout session cannot be bound`);
}

async function saveQuote(
  trx: Kysely<Database>,
  session: { organization_id: string; id: string },
  quote: Quote,
  at: Date,
  status: 'OPEN' | 'BOUND',
  tax: { inCents: number; included: boolean },
  hold?: { firstBoundAt: Date; expiresAt: Date; clientKey: string },
) {
  return trx
    .updateTable('checkout_sessions')
    .set({
      status,
      shipping_rate_id: quote.shipping.selected?.id ?? null,
      shipping_rate_name: quote.shipping.selected?.name ?? null,
      subtotal_in_cents: quote.subtotalInCents,
      shipping_in_cents: quote.shippingInCents,
      tax_in_cents: tax.inCents,
      tax_included: tax.included,
      total_in_cents: quote.subtotalInCents + quote.shippingInCents + (tax.included ? 0 : tax.inCents),
      bound_at: hold ? at : null,
      updated_at: at,
      ...(hold
        ? { first_bound_at: hold.firstBoundAt, expires_at: hold.expiresAt, hold_client_key: hold.clientKey }
        : {}),
    })
    .where('organization_id', '=', session.organization_id)
    .where('id', '=', session.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
