import { hashToken } from '@commerce/core';
import { type Database, withIdempotency } from '@commerce/db';
import type { Kysely } from 'kysely';
import { retryOnAbort } from '../../capacity/capacity-lock.ts';
import { findHold, holdNotFound } from '../../holds/find-hold.ts';
import type { BookingTax } from '../booking-tax.ts';
import type { ConversionRead, ConvertHoldInput } from '../convert-schemas.ts';
import { presentConversion } from './conversion-read.ts';
import { convert } from './convert.ts';
import type { ConvertContext } from './convert-context.ts';
import type { HoldRow } from './hold-terms.ts';
import { quoteConversionTax } from './quote-conversion-tax.ts';

export type { ConvertContext } from './convert-context.ts';
export type { ConversionDeliverySnapshot } from './hold-terms.ts';

export const HOLD_CONVERT_OPERATION = 'POST /public/booking-holds/:id/checkout';

/** Key possession: the hold's own key, else the neutral 404 (an unknown or foreign hold alike). */
function assertPossession(hold: HoldRow | undefined, idempotencyKey: string): asserts hold is HoldRow {
  if (!hold || hold.key_hash !== hashToken(idempotencyKey)) throw holdNotFound();
}

/**
 * `POST /public/booking-holds/:id/checkout`. The hold's own
 * idempotency key proves possession (another key, an unknown or another
 * tenant's hold: the neutral 404) and makes the conversion happen once: the
 * key is recorded in the conversion's transaction, a concurrent duplicate
 * waits and then replays it. Checked in order, with the hold row locked: the
 * email (400), the terminal conditions (hold not ACTIVE or expired, service
 * not ACTIVE), the agreement (409 AGREEMENT_REQUIRED), the delivery snapshot
 * (409 STALE_STATE), then under the capacity lock the hold's claim (lost to
 * expiry: TERMINAL CAPACITY_LOST); then the flow: REQUEST (claim released),
 * PAYMENT (claim kept until `paymentExpiresAt`, a checkout bound to the due
 * amount) or CONFIRMED (claim kept). A replay reads the booking's present.
 */
export async function convertHold(
  db: Kysely<Database>,
  ctx: ConvertContext,
  holdId: string,
  body: ConvertHoldInput,
  options: { currency: string; idempotencyKey: string; tax?: BookingTax },
): Promise<{ conversion: ConversionRead; replayed: boolean }> {
  const found = await findHold(db, ctx.organizationId, holdId);
  assertPossession(found, options.idempotencyKey);
  // A provider call is a read without effect, before the transaction where the key is claimed.
  const tax =
    found.status === 'ACTIVE'
      ? await quoteConversionTax(db, ctx, found, options.currency, options.tax)
      : null;
  const outcome = await retryOnAbort(() =>
    withIdempotency<ConversionRead>(
      db,
      {
        organizationId: ctx.organizationId,
        operation: HOLD_CONVERT_OPERATION,
        key: options.idempotencyKey,
        intent: { params: { id: holdId }, body },
        retention: 'standard',
        now: ctx.at,
      },
      async (trx) => {
        const hold = await findHold(trx, ctx.organizationId, holdId, { forUpdate: true });
        assertPossession(hold, options.idempotencyKey);
        return { status: 200, body: await convert(trx, ctx, hold, body, options.currency, tax) };
      },
      {
        // A raw credential is never stored: a replay issues a new one for the same checkout.
        toRecord: (conversion) => ({ ...conversion, checkoutToken: null }),
        fromRecord: async (trx, recorded) => {
          const conversion = recorded.body as ConversionRead;
          if (conversion.bookingId === null) return conversion;
          return presentConversion(trx, ctx, conversion.bookingId, conversion.currency);
        },
      },
    ),
  );
  return { conversion: outcome.body, replayed: outcome.replayed };
}
