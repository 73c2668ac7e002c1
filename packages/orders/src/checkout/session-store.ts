import { AppError, hashToken, isTokenOf } from '@commerce/core';
import type {
  CheckoutSession,
  CheckoutSessionLine,
  Database,
  PaymentAttempt,
  PaymentStatus,
} from '@commerce/db';
import type { Kysely } from 'kysely';
import type { CartLineInput, PricedLine } from './quote.ts';
import type { CheckoutSessionRead, ShippingOption } from './schemas.ts';

/** The states a session leaves by expiring; later ones belong to an order the webhook settles. */
export const EXPIRING_STATUSES = ['OPEN', 'BOUND', 'PAYMENT_FAILED'] as const;

/** A booking payment's session: bound to the amount due, never repriced or rebound. */
export function isBookingSession(session: Pick<CheckoutSession, 'sales_record_id'>): boolean {
  return session.sales_record_id !== null;
}

/** 409 for a change to a booking payment's session: its amount is the booking's, not a cart's. */
export function assertNotBookingSession(
  session: Pick<CheckoutSession, 'sales_record_id'>,
  action: string,
): void {
  if (isBookingSession(session))
    throw new AppError(
      'INVALID_STATE_TRANSITION',
      `A booking payment's checkout session cannot be ${action}: it is bound to the amount due`,
    );
}

export function isPastExpiry(session: CheckoutSession, at: Date): boolean {
  return (EXPIRING_STATUSES as readonly string[]).includes(session.status) && session.expires_at <= at;
}

/**
 * The session a `c1_` token names, locked for update when asked. A malformed,
 * unknown, foreign (another organization than `organizationId`, when given),
 * expired or past-expiry token is one neutral 404: a token is a credential
 * and its failures do not tell apart.
 */
export async function findSessionByToken(
  db: Kysely<Database>,
  token: string,
  options: { organizationId?: string; at: Date; lock?: boolean },
): Promise<CheckoutSession> {
  const notFound = () => AppError.notFound('Checkout session not found');
  if (!isTokenOf('checkout', token)) throw notFound();
  const tokenHash = hashToken(token);
  const select = () =>
    db
      .selectFrom('checkout_sessions')
      .selectAll()
      .$if(options.organizationId !== undefined, (qb) =>
        qb.where('organization_id', '=', options.organizationId!),
      )
      .$if(options.lock === true, (qb) => qb.forUpdate());
  let session = await select().where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!session) {
    // A further token of a session (a booking conversion replay's fresh credential), by its own index.
    const further = await db
      .selectFrom('checkout_session_tokens')
      .select(['organization_id', 'checkout_session_id'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (further)
      session = await select()
        .where('organization_id', '=', further.organization_id)
        .where('id', '=', further.checkout_session_id)
        .executeTakeFirst();
  }
  if (!session || session.status === 'EXPIRED' || isPastExpiry(session, options.at)) throw notFound();
  return session;
}

/**
 * Locks a checkout session, then one of its payment attempts: the order in
 * which payment-session takes them (the session by its token, then its
 * attempt), so the webhook and the payment-timeout sweep, which take both,
 * never deadlock with it or with each other.
 */
export async function lockSessionAndAttempt(
  trx: Kysely<Database>,
  ids: { organizationId: string; checkoutSessionId: string; paymentAttemptId: string },
): Promise<{ session: CheckoutSession; attempt: PaymentAttempt }> {
  const session = await trx
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('organization_id', '=', ids.organizationId)
    .where('id', '=', ids.checkoutSessionId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const attempt = await trx
    .selectFrom('payment_attempts')
    .selectAll()
    .where('organization_id', '=', ids.organizationId)
    .where('id', '=', ids.paymentAttemptId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { session, attempt };
}

export function sessionLines(
  db: Kysely<Database>,
  session: Pick<CheckoutSession, 'organization_id' | 'id'>,
): Promise<CheckoutSessionLine[]> {
  return db
    .selectFrom('checkout_session_lines')
    .selectAll()
    .where('organization_id', '=', session.organization_id)
    .where('checkout_session_id', '=', session.id)
    .orderBy('position')
    .execute();
}

/** The stored lines as cart input (to reprice them), each keeping its index in the client's cart. */
export function linesAsInput(lines: readonly CheckoutSessionLine[]): CartLineInput[] {
  return lines.map((line) => ({
    itemId: line.item_id,
    variantId: line.variant_id,
    quantity: line.quantity,
    position: line.position,
  }));
}

/** Replaces the session's lines with freshly priced ones. */
export async function replaceLines(
  trx: Kysely<Database>,
  session: Pick<CheckoutSession, 'organization_id' | 'id'>,
  lines: readonly PricedLine[],
  at: Date,
  newLineId: () => string,
): Promise<CheckoutSessionLine[]> {
  await trx
    .deleteFrom('checkout_session_lines')
    .where('organization_id', '=', session.organization_id)
    .where('checkout_session_id', '=', session.id)
    .execute();
  return trx
    .insertInto('checkout_session_lines')
    .values(
      lines.map((line) => ({
        organization_id: session.organization_id,
        id: newLineId(),
        checkout_session_id: session.id,
        // The client's index of the line, so a later shortage or issue names the line it sent.
        position: line.position,
        item_id: line.itemId,
        variant_id: line.variantId,
        quantity: line.quantity,
        name: line.name,
        unit_price_in_cents: line.unitPriceInCents,
        type: line.type,
        created_at: at,
      })),
    )
    .returningAll()
    .execute()
    .then((rows) => rows.sort((a, b) => a.position - b.position));
}

export function toCheckoutSessionRead(
  session: CheckoutSession,
  lines: readonly CheckoutSessionLine[],
  shipping: { required: boolean; options: ShippingOption[] },
  paymentStatus: PaymentStatus | null,
  order: { number: number; reference: string | null } | null = null,
): CheckoutSessionRead {
  return {
    id: session.id,
    status: session.status,
    currency: session.currency,
    email: session.email,
    customerName: session.customer_name,
    customerPhone: session.customer_phone,
    shippingCountry: session.shipping_country,
    shippingAddress: session.shipping_address,
    lines: lines.map((line) => ({
      type: line.type,
      itemId: line.item_id,
      variantId: line.variant_id,
      name: line.name,
      quantity: line.quantity,
      unitPriceInCents: line.unit_price_in_cents,
      totalInCents: line.quantity * line.unit_price_in_cents,
    })),
    shippingRequired: shipping.required,
    shippingOptions: shipping.options,
    shippingRateId: session.shipping_rate_id,
    subtotalInCents: session.subtotal_in_cents,
    shippingInCents: session.shipping_in_cents,
    taxInCents: session.tax_in_cents,
    taxIncluded: session.tax_included,
    totalInCents: session.total_in_cents,
    boundAt: session.bound_at?.toISOString() ?? null,
    expiresAt: session.expires_at.toISOString(),
    orderId: session.order_id,
    orderNumber: order?.number ?? null,
    orderReference: order?.reference ?? null,
    paymentStatus,
    createdAt: session.created_at.toISOString(),
    updatedAt: session.updated_at.toISOString(),
  };
}
