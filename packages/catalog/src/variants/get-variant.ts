import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { VariantRead } from './schemas.ts';
import { findVariantRow, toVariantRead, variantNotFound } from './variant-read.ts';

/** A variant of an item (archived included); another item's, another tenant's or a missing one is 404. */
export async function getVariant(
  db: Kysely<Database>,
  organizationId: string,
  itemId: string,
  variantId: string,
): Promise<VariantRead> {
  const variant = await findVariantRow(db, organizationId, itemId, variantId);
  if (!variant) throw variantNotFound();
  return toVariantRead(variant);
}
