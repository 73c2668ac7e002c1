import { AppError, newId, type Page } from '@commerce/core';
import { type Database, inTransaction } from '@commerce/db';
import type { Kysely } from 'kysely';
import { type AddressOwner, findAddress, lockAddressBook, toCustomerAddressRead } from './address-read.ts';
import type {
  AddressListQuery,
  CreateAddressInput,
  CustomerAddressRead,
  UpdateAddressInput,
} from './schemas.ts';

const emptyToNull = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null || value === '' ? null : value;

/** The address book, newest first, keyset-paginated by id; a cursor that names no address of the customer is 400. */
export async function listAddresses(
  db: Kysely<Database>,
  owner: AddressOwner,
  query: AddressListQuery,
): Promise<Page<CustomerAddressRead>> {
  if (query.cursor !== undefined) {
    const cursor = await db
      .selectFrom('customer_addresses')
      .select('id')
      .where('organization_id', '=', owner.organizationId)
      .where('customer_id', '=', owner.customerId)
      .where('id', '=', query.cursor)
      .executeTakeFirst();
    if (!cursor) throw AppError.validation([{ path: 'cursor', message: 'does not name an address' }]);
  }
  const rows = await db
    .selectFrom('customer_addresses')
    .selectAll()
    .where('organization_id', '=', owner.organizationId)
    .where('customer_id', '=', owner.customerId)
    .$if(query.cursor !== undefined, (qb) => qb.where('id', '<', query.cursor!))
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const shown = rows.slice(0, query.limit);
  return {
    data: shown.map(toCustomerAddressRead),
    nextCursor: rows.length > query.limit ? shown[shown.length - 1]!.id : null,
  };
}

export async function getAddress(
  db: Kysely<Database>,
  owner: AddressOwner,
  addressId: string,
): Promise<CustomerAddressRead> {
  return toCustomerAddressRead(await findAddress(db, owner, addressId));
}

/** Adds an address; taking a default clears the previous one in the same transaction. */
export async function createAddress(
  db: Kysely<Database>,
  owner: AddressOwner & { at: Date },
  input: CreateAddressInput,
): Promise<CustomerAddressRead> {
  return inTransaction(db, async (trx) => {
    const isDefaultShipping = input.isDefaultShipping === true;
    const isDefaultBilling = input.isDefaultBilling === true;
    await lockAddressBook(trx, owner, { shipping: isDefaultShipping, billing: isDefaultBilling });
    const row = await trx
      .insertInto('customer_addresses')
      .values({
        organization_id: owner.organizationId,
        id: newId('adr', owner.at),
        customer_id: owner.customerId,
        name: emptyToNull(input.name) ?? null,
        company: emptyToNull(input.company) ?? null,
        line1: input.line1,
        line2: emptyToNull(input.line2) ?? null,
        city: input.city,
        state: emptyToNull(input.state) ?? null,
        postal_code: emptyToNull(input.postalCode) ?? null,
        country: input.country,
        phone: emptyToNull(input.phone) ?? null,
        is_default_shipping: isDefaultShipping,
        is_default_billing: isDefaultBilling,
        created_at: owner.at,
        updated_at: owner.at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toCustomerAddressRead(row);
  });
}

/**
 * Changes the fields sent. `isDefaultShipping: true` makes it the default and
 * clears the previous default in the same transaction; `false` on the default
 * leaves the customer without one.
 */
export async function updateAddress(
  db: Kysely<Database>,
  owner: AddressOwner & { at: Date },
  input: UpdateAddressInput,
): Promise<CustomerAddressRead> {
  return inTransaction(db, async (trx) => {
    await lockAddressBook(trx, owner, {
      shipping: input.isDefaultShipping === true,
      billing: input.isDefaultBilling === true,
    });
    await findAddress(trx, owner, input.id);
    const row = await trx
      .updateTable('customer_addresses')
      .set({
        name: emptyToNull(input.name),
        company: emptyToNull(input.company),
        line1: input.line1,
        line2: emptyToNull(input.line2),
        city: input.city,
        state: emptyToNull(input.state),
        postal_code: emptyToNull(input.postalCode),
        country: input.country,
        phone: emptyToNull(input.phone),
        is_default_shipping: input.isDefaultShipping,
        is_default_billing: input.isDefaultBilling,
        updated_at: owner.at,
      })
      .where('organization_id', '=', owner.organizationId)
      .where('customer_id', '=', owner.customerId)
      .where('id', '=', input.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toCustomerAddressRead(row);
  });
}

/** Removes an address (a default one too: the customer then has no default of that kind). */
export async function deleteAddress(
  db: Kysely<Database>,
  owner: AddressOwner,
  addressId: string,
): Promise<void> {
  const deleted = await db
    .deleteFrom('customer_addresses')
    .where('organization_id', '=', owner.organizationId)
    .where('customer_id', '=', owner.customerId)
    .where('id', '=', addressId)
    .executeTakeFirst();
  if (deleted.numDeletedRows === 0n) throw AppError.notFound('Address not found');
}
