import { newId } from '@commerce/core';
import type { Customer, Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';

/**
 * The organization's customer of a just-verified email, created on its first
 * sign-in (passwordless sign-up) and marked verified. One statement, so two
 * concurrent first sign-ins make one customer.
 */
export async function upsertVerifiedCustomer(
  db: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  email: string,
): Promise<Customer> {
  const { rows } = await sql<Customer>`
    insert into customers (organization_id, id, email, email_verified_at, created_at, updated_at)
    values (${scope.organizationId}, ${newId('cus', scope.at)}, ${email}, ${scope.at}, ${scope.at}, ${scope.at})
    on conflict (organization_id, email) do update
      set email_verified_at = coalesce(customers.email_verified_at, excluded.email_verified_at)
    returning *`.execute(db);
  return rows[0]!;
}
