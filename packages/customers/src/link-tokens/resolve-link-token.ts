import { AppError, hashToken } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { z } from 'zod';

/**
 * The token families the service emails in hosted links (the contract's credential tokens and
 * our own, docs/api.md "Identifiers and tokens"; docs/hosted-app.md): a sign-in link `l1_`, an order-status link `o1_`, an unsubscribe link `u1_` (stock
 * notifications and cart reminders), a checkout capability `c1_`, a booking management link `m1_`.
 */
const LINK_TOKEN = /^[loucm]1_[A-Za-z0-9_-]{43}$/;

export const resolveLinkTokenInputSchema = z
  .strictObject({
    token: z
      .string()
      .max(100)
      .describe(
        'A token of an emailed hosted link: `l1_`, `o1_`, `u1_`, `c1_` or `m1_` followed by 43 characters',
      ),
  })
  .meta({ id: 'LinkTokenResolve' });

export const resolvedLinkTokenSchema = z
  .object({ orgSlug: z.string().describe('The slug of the store the token belongs to') })
  .meta({ id: 'LinkTokenStore' });

/**
 * Which store a hosted link's token belongs to, so a link whose base names no store still opens the
 * store's page: the token names the store. The answer is the store only: whether the
 * token is still usable is the store's own route's to say. Unknown, malformed and suspended-store
 * tokens are one neutral 404. One indexed lookup by hash (two tables for `u1_` and `c1_`).
 */
export async function resolveLinkToken(db: Kysely<Database>, token: string): Promise<{ orgSlug: string }> {
  if (!LINK_TOKEN.test(token)) throw AppError.notFound('Link not found');
  const hash = hashToken(token);
  const family = token[0];
  let query = db
    .selectFrom('organizations')
    .select('organizations.slug')
    .where('organizations.status', '=', 'ACTIVE');
  const owner = (() => {
    switch (family) {
      case 'l':
        return db
          .selectFrom('customer_sign_in_challenges')
          .select('organization_id')
          .where('link_token_hash', '=', hash);
      case 'o':
        return db.selectFrom('order_status_tokens').select('organization_id').where('token_hash', '=', hash);
      case 'm':
        return db
          .selectFrom('booking_management_tokens')
          .select('organization_id')
          .where('token_hash', '=', hash);
      case 'u':
        return db
          .selectFrom('email_unsubscribe_tokens')
          .select('organization_id')
          .where('token_hash', '=', hash)
          .unionAll(
            db
              .selectFrom('abandoned_cart_unsubscribe_tokens')
              .select('organization_id')
              .where('token_hash', '=', hash),
          );
      default:
        return db
          .selectFrom('checkout_sessions')
          .select('organization_id')
          .where('token_hash', '=', hash)
          .unionAll(
            db.selectFrom('checkout_session_tokens').select('organization_id').where('token_hash', '=', hash),
          );
    }
  })();
  query = query.where('organizations.id', 'in', owner);
  const row = await query.limit(1).executeTakeFirst();
  if (!row) throw AppError.notFound('Link not found');
  return { orgSlug: row.slug };
}
