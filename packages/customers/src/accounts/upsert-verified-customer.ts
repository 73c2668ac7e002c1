import { newId } from '@commerce/core';
import type { Customer, Database } from '@commerce/db';
import { enqueueWebhookEvent } from '@commerce/notifications/webhooks';
import { type Kysely, sql } from 'kysely';
import { toCustomerProfileRead } from '../profile/get-profile.ts';

/**
 * The organization's customer of a just-verified email, created on its first
 * sign-in (passwordless sign-up) and marked verified. One statement, so two
 * concurrent first sign-ins make one customer, and one `customer.created` webhook.
 */
export async function upsertVerifiedCustomer(
  db: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  email: string,
): Promise<Customer> {
  // `xmax = 0` tells the row this statement inserted from one it updated (a returning customer).
  const { rows } = await sql<Customer & { inserted: boolean }>`
    insert into customers (organization_id, id, email, email_verified_at, created_at, updated_at)
    values (${scope.organizationId}, ${newId('cus', scope.at)}, ${email}, ${scope.at}, ${scope.at}, ${scope.at})
    on conflict (organization_id, email) do update
      set email_verified_at = coalesce(customers.email_verified_at, excluded.email_verified_at)
    returning *, (xmax = 0) as inserted`.execute(db);
  const { inserted, ...customer } = rows[0]!;
  if (inserted)
    await enqueueWebhookEvent(db, {
      organizationId: scope.organizationId,
      type: 'customer.created',
      objectId: customer.id,
      data: toCustomerProfileRead(customer),
      at: scope.at,
    });
  return customer;
}
