import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { shippingOptionsFor } from './quote.ts';
import type { CheckoutSessionRead } from './schemas.ts';
import { findSessionByToken, sessionLines, toCheckoutSessionRead } from './session-store.ts';

/**
 * The checkout session a `c1_` token names, as the steps answer it, without changing it: the
 * hosted checkout page opens with it and its result page polls it for the order's payment axis
 * (`paymentStatus`, set by the server from the provider's webhook, never from the browser) and its
 * order number for the confirmation. Lines
 * and shipping options as last priced (reprice prices again). The same neutral 404 as every step.
 * Three to four small queries.
 */
export async function getCheckoutSession(
  db: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  token: string,
): Promise<CheckoutSessionRead> {
  const session = await findSessionByToken(db, token, { organizationId: scope.organizationId, at: scope.at });
  const [lines, order] = await Promise.all([
    sessionLines(db, session),
    session.order_id === null
      ? Promise.resolve(undefined)
      : db
          .selectFrom('orders')
          .select(['payment_status', 'order_number', 'order_reference'])
          .where('organization_id', '=', session.organization_id)
          .where('id', '=', session.order_id)
          .executeTakeFirst(),
  ]);
  const shipping = lines.some((line) => line.type === 'PRODUCT')
    ? await shippingOptionsFor(
        db,
        session.organization_id,
        session.shipping_country,
        session.subtotal_in_cents,
      )
    : { required: false, options: [] };
  return toCheckoutSessionRead(
    session,
    lines,
    shipping,
    order?.payment_status ?? null,
    order ? { number: order.order_number, reference: order.order_reference } : null,
  );
}
