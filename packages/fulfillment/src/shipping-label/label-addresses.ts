import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { CarrierAddress } from '../carrier/carrier-provider.ts';

const line = (max: number) => z.string().trim().min(1).max(max);
// A snapshot written by the shipping-address route keeps absent optional lines as null.
const optionalLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || undefined);

/** An address a carrier can rate: the stored ship-from or ship-to snapshot, as written by settings or checkout. */
const carrierAddressSchema = z.object({
  name: line(200),
  company: optionalLine(200),
  line1: line(300),
  line2: optionalLine(300),
  city: line(200),
  state: optionalLine(200),
  postalCode: line(32),
  country: z.string().regex(/^[A-Z]{2}$/),
  phone: optionalLine(50),
});

const parsed = (value: unknown): CarrierAddress | null => {
  const result = carrierAddressSchema.safeParse(value);
  return result.success ? result.data : null;
};

export interface LabelSettings {
  /** `businessProfile.shipFromAddress`, or null when unset. */
  shipFrom: CarrierAddress | null;
  /** `checkoutSettings.currency` (default USD): a carrier account opens in it. */
  currency: string;
}

/** The settings a label reads, from the organization's settings row (one query). */
export async function labelSettingsOf(db: Kysely<Database>, organizationId: string): Promise<LabelSettings> {
  const row = await db
    .selectFrom('organization_settings')
    .select(['business_profile', 'checkout_settings'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  const currency = (row?.checkout_settings as { currency?: unknown } | undefined)?.currency;
  return {
    shipFrom: parsed((row?.business_profile as { shipFromAddress?: unknown } | undefined)?.shipFromAddress),
    currency: typeof currency === 'string' ? currency : 'USD',
  };
}

/** The sales record's ship-to snapshot, or null when it has none a carrier can rate. */
export const shipToOf = (snapshot: unknown): CarrierAddress | null => parsed(snapshot);
