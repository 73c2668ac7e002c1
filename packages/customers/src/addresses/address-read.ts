import { AppError } from '@commerce/core';
import type { CustomerAddress, Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { CustomerAddressRead } from './schemas.ts';

/** Whose address book: the signed-in customer of one organization. */
export interface AddressOwner {
  organizationId: string;
  customerId: string;
}

export function toCustomerAddressRead(row: CustomerAddress): CustomerAddressRead {
  return {
    id: row.id,
    name: row.name,
    company: row.company,
    line1: row.line1,
    line2: row.line2,
    city: row.city,
    state: row.state,
    postalCode: row.postal_code,
    country: row.country,
    phone: row.phone,
    isDefaultShipping: row.is_default_shipping,
    isDefaultBilling: row.is_default_billing,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** One address of the customer; another customer's, another store's or a missing one is a neutral 404. */
export async function findAddress(
  db: Kysely<Database>,
  owner: AddressOwner,
  addressId: string,
): Promise<CustomerAddress> {
  const row = await db
    .selectFrom('customer_addresses')
    .selectAll()
    .where('organization_id', '=', owner.organizationId)
    .where('customer_id', '=', owner.customerId)
    .where('id', '=', addressId)
    .executeTakeFirst();
  if (!row) throw AppError.notFound('Address not found');
  return row;
}

/**
 * Serializes the address-book writes of one customer (their customer row is
 * locked), then clears the defaults the write is about to take, so that the
 * partial unique indexes never see two defaults.
 */
export async function lockAddressBook(
  trx: Kysely<Database>,
  owner: AddressOwner,
  takes: { shipping: boolean; billing: boolean },
): Promise<void> {
  await trx
    .selectFrom('customers')
    .select('id')
    .where('organization_id', '=', owner.organizationId)
    .where('id', '=', owner.customerId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (takes.shipping) {
    await trx
      .updateTable('customer_addresses')
      .set({ is_default_shipping: false })
      .where('organization_id', '=', owner.organizationId)
      .where('customer_id', '=', owner.customerId)
      .where('is_default_shipping', '=', true)
      .execute();
  }
  if (takes.billing) {
    await trx
      .updateTable('customer_addresses')
      .set({ is_default_billing: false })
      .where('organization_id', '=', owner.organizationId)
      .where('customer_id', '=', owner.customerId)
      .where('is_default_billing', '=', true)
      .execute();
  }
}
