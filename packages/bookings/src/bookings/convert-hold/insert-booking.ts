import { newId } from '@commerce/core';
import type { BookingStatus, Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { unusedBookingCode } from '../booking-codes.ts';
import { bookingEventOf, emitBookingEvent } from '../booking-webhooks.ts';
import type { ConvertHoldInput } from '../convert-schemas.ts';
import { historyEntry } from '../history.ts';
import type { Amounts } from './conversion-amounts.ts';
import type { ConvertContext } from './convert-context.ts';
import {
  type ConversionDeliverySnapshot,
  type HoldRow,
  type HoldSnapshot,
  type ServiceRow,
  storedAgreementSchema,
} from './hold-terms.ts';

/** Inserts the booking row, its allocations and its first history entry. */
export async function insertBooking(
  trx: Kysely<Database>,
  ctx: ConvertContext,
  input: {
    hold: HoldRow;
    service: ServiceRow;
    snapshot: HoldSnapshot;
    delivery: ConversionDeliverySnapshot | null;
    amounts: Amounts;
    status: BookingStatus;
    customerId: string | null;
    body: ConvertHoldInput;
    paymentExpiresAt: Date | null;
    requestExpiresAt: Date | null;
  },
): Promise<string> {
  const { hold, service, snapshot, amounts, body } = input;
  const id = newId('bkg', ctx.at);
  const agreement = storedAgreementSchema.parse(service.agreement);
  const agreements =
    agreement && body.agreement
      ? [
          {
            title: agreement.title,
            version: body.agreement.version,
            signerName: body.agreement.signerName,
            acceptedAt: ctx.at.toISOString(),
          },
        ]
      : [];
  const serviceSnapshot = {
    name: service.name,
    slug: service.slug,
    periodMode: service.period_mode,
    timezone: service.timezone,
    requirements: snapshot.allocations.map(({ requirementId, selection }) => ({ requirementId, selection })),
    policies: service.policies,
    checkout: service.checkout,
    pricing: service.pricing,
    agreement: agreement ? { title: agreement.title, version: service.agreement_version } : null,
    claim: snapshot.claim,
  };
  await trx
    .insertInto('bookings')
    .values({
      organization_id: ctx.organizationId,
      id,
      code: await unusedBookingCode(trx, ctx.organizationId),
      service_id: service.id,
      hold_id: hold.id,
      status: input.status,
      starts_at: hold.starts_at,
      ends_at: hold.ends_at,
      quantity: hold.quantity,
      timezone: snapshot.timezone,
      customer_id: input.customerId,
      customer_name: body.customerName,
      customer_email: hold.customer_email,
      customer_phone: body.customerPhone ?? null,
      customer_note: body.customerNote ?? null,
      billing_address: body.billingAddress ? JSON.stringify(body.billingAddress) : null,
      delivery: input.delivery ? JSON.stringify(input.delivery) : null,
      snapshot: JSON.stringify(serviceSnapshot),
      currency: amounts.currency,
      subtotal_in_cents: amounts.subtotalInCents,
      delivery_fee_in_cents: amounts.deliveryFeeInCents,
      tax_in_cents: amounts.taxInCents,
      total_in_cents: amounts.totalInCents,
      amount_due_now_in_cents: amounts.amountDueNowInCents,
      payment_expires_at: input.paymentExpiresAt,
      request_expires_at: input.requestExpiresAt,
      // While unpaid, the booking counts against its hold's client and email limits (holds.ts).
      client_key: hold.client_key,
      email_proven: hold.email_proven,
      agreements: JSON.stringify(agreements),
      history: JSON.stringify([
        historyEntry(ctx, { from: null, to: input.status, actor: input.customerId ? 'CUSTOMER' : 'GUEST' }),
      ]),
      created_at: ctx.at,
      updated_at: ctx.at,
    })
    .execute();
  await trx
    .insertInto('booking_allocations')
    .values(
      snapshot.allocations.map((allocation, position) => ({
        organization_id: ctx.organizationId,
        booking_id: id,
        requirement_id: allocation.requirementId,
        resource_id: allocation.resourceId,
        quantity: allocation.quantity,
        selection: allocation.selection,
        position,
      })),
    )
    .execute();
  await emitBookingEvent(trx, ctx, id, bookingEventOf(input.status));
  return id;
}

/** The customer a conversion links: the hold's (`customer_id`), else the session's. */
export function linkedCustomer(hold: HoldRow, ctx: ConvertContext): string | null {
  return hold.customer_id ?? ctx.customerId ?? null;
}

/** The customer id if it is one of the tenant's customers, else null. */
export async function customerOfTenant(
  trx: Kysely<Database>,
  organizationId: string,
  customerId: string | null,
) {
  if (customerId === null) return null;
  const row = await trx
    .selectFrom('customers')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', customerId)
    .executeTakeFirst();
  return row?.id ?? null;
}
