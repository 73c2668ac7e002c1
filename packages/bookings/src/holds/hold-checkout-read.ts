import { hashToken } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { freezeAmounts } from '../bookings/convert-hold/conversion-amounts.ts';
import {
  type ConversionDeliverySnapshot,
  holdSnapshotSchema,
  storedCheckoutSchema,
} from '../bookings/convert-hold/hold-terms.ts';
import type { BookingClockContext } from '../context.ts';
import { findHold, holdNotFound } from './find-hold.ts';
import { toHoldRead } from './holds.ts';
import type { HoldCheckoutRead } from './schemas.ts';

const MS_PER_MINUTE = 60_000;

/**
 * `GET /public/booking-holds/:id`: the hold as its checkout page shows it, proven by the key it was
 * created with (another key, an unknown or another tenant's hold is the neutral 404, as release).
 * The hold's own read (status, `expiresAt`, `expiresInSeconds` counted at `ctx.at`) plus the
 * service's name, the duration, the named resources of `OPTIONAL` and `REQUIRED` requirements,
 * and what is due now and later under the service's terms in force, before tax: conversion prices
 * with the same function (`freezeAmounts`) and adds the tax. Reads only.
 */
export async function readHoldForCheckout(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  holdId: string,
  idempotencyKey: string,
  options: { currency: () => Promise<string> },
): Promise<HoldCheckoutRead> {
  const hold = await findHold(db, ctx.organizationId, holdId);
  if (!hold || hold.key_hash !== hashToken(idempotencyKey)) throw holdNotFound();
  const service = await db
    .selectFrom('booking_services')
    .select(['name', 'timezone', 'pricing', 'checkout'])
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', hold.service_id)
    .executeTakeFirst();
  if (!service) throw holdNotFound();
  const read = toHoldRead(hold, service.timezone, ctx.at);
  const snapshot = holdSnapshotSchema.safeParse(hold.snapshot);
  const named = new Set(
    snapshot.success
      ? snapshot.data.allocations
          .filter((allocation) => allocation.selection !== 'AUTO')
          .map((allocation) => allocation.resourceId)
      : [],
  );
  const names = new Map(
    named.size === 0
      ? []
      : (
          await db
            .selectFrom('booking_resources')
            .select(['id', 'name'])
            .where('organization_id', '=', ctx.organizationId)
            .where('id', 'in', [...named])
            .execute()
        ).map((row) => [row.id, row.name] as const),
  );
  const checkout = storedCheckoutSchema.safeParse(service.checkout);
  const currency = read.pricing?.currency ?? (await options.currency());
  const amounts =
    checkout.success && snapshot.success
      ? freezeAmounts(
          service,
          hold,
          snapshot.data,
          // Only its fee is priced; the read already took it from the frozen snapshot.
          { feeInCents: read.delivery.feeInCents } as ConversionDeliverySnapshot,
          checkout.data,
          currency,
        )
      : null;
  return {
    ...read,
    serviceName: service.name,
    durationMinutes: Math.round(
      (new Date(hold.ends_at).getTime() - new Date(hold.starts_at).getTime()) / MS_PER_MINUTE,
    ),
    resources: read.resources.map((resource) => ({
      ...resource,
      name: names.get(resource.resourceId) ?? '',
    })),
    payment:
      amounts && checkout.success
        ? {
            paymentMode: checkout.data.paymentMode,
            approvalMode: checkout.data.approvalMode,
            currency,
            totalInCents: amounts.totalInCents,
            dueNowInCents: amounts.amountDueNowInCents,
            dueLaterInCents: amounts.totalInCents - amounts.amountDueNowInCents,
          }
        : null,
  };
}
