import { AppError } from '@commerce/core';
import type { Customer, Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { CustomerProfileRead } from './schemas.ts';

export function toCustomerProfileRead(row: Customer): CustomerProfileRead {
  return {
    id: row.id,
    email: row.email,
    emailVerified: row.email_verified_at !== null,
    pendingEmail: row.pending_email,
    name: row.name,
    phone: row.phone,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** The customer row, locked for update when asked. */
export async function findCustomer(
  db: Kysely<Database>,
  organizationId: string,
  customerId: string,
  lock?: 'update',
): Promise<Customer> {
  const row = await db
    .selectFrom('customers')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', customerId)
    .$if(lock === 'update', (qb) => qb.forUpdate())
    .executeTakeFirst();
  // The session was valid a moment ago; a customer deleted since then reads as signed out.
  if (!row) throw new AppError('UNAUTHENTICATED', 'The session is invalid or expired');
  return row;
}

export async function getCustomerProfile(
  db: Kysely<Database>,
  organizationId: string,
  customerId: string,
): Promise<CustomerProfileRead> {
  return toCustomerProfileRead(await findCustomer(db, organizationId, customerId));
}
