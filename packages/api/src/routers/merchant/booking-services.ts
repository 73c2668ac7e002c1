import { getSettings } from '@commerce/admin';
import {
  archiveService,
  createService,
  createServiceInputSchema,
  getService,
  listServices,
  restoreService,
  serviceActionInputSchema,
  serviceIdInputSchema,
  serviceListQuerySchema,
  serviceSchema,
  updateService,
  updateServiceInputSchema,
} from '@commerce/bookings';
import { pageSchema } from '@commerce/core';
import type { ApiContext } from '../../context.ts';
import { merchantProcedure, merchantProcedureWith, router } from '../../trpc.ts';
import { bookingWriteContext } from './booking-resources.ts';

const TAGS = ['Merchant: booking services'];

/** The store currency that service reads quote their pricing preview in. */
export async function storeCurrency(ctx: ApiContext, organizationId: string): Promise<string> {
  return (await getSettings(ctx.db, organizationId, ctx.clock.now())).checkoutSettings.currency;
}

const SERVICE_BODY = [
  'Body: `slug` (lowercase letters and digits in words joined by single hyphens, at most 100, unique per organization: `409 SLUG_TAKEN`), `name` (1 to 200), `description` (at most 5,000 or null), `status` (`ACTIVE` or `DRAFT`, default `DRAFT`), `itemId` (a catalog item of type `SERVICE` or `RENTAL`, display only, or null), `periodMode`, `timezone` (IANA), `durations`, `fixedSlots` (`FIXED_SLOT` only), `availability` (`weeklyHours`, `exceptions`, `hoursPolicy`, `leadTimeMinutes`, `maxAdvanceDays`, `bufferBeforeMinutes`, `bufferAfterMinutes`), `partySize` (`{ min, max }`, default `{ 1, 1 }`), `requirements` (1 to 10: `{ id?, name, resourceIds (1 to 200 ACTIVE resources of the organization, in preference order), units ({ mode: PER_BOOKING, count 1 to 100 } or { mode: PER_PARTICIPANT }), selection (AUTO, OPTIONAL or REQUIRED; default AUTO), allowSplit (default false) }`), `pricing` (`FLAT`, `PER_PERIOD` or `DURATION_TABLE`, or null), `checkout` (`approvalMode`, `paymentMode`, `deposit` for `DEPOSIT` only, `holdMinutes` 5 to 30, `paymentWindowMinutes` 10 to 1,440, `approvedPaymentWindowHours` 1 to 168, `requestExpiryHours` 1 to 720), `policies` (`cancellation` and `reschedule`: `{ mode: SELF_SERVICE, REQUEST or NONE, cutoffMinutes 0 to 525,600 }`, default `REQUEST`, 0), `delivery` (`mode` `PICKUP_ONLY` (default), `OPTIONAL` or `REQUIRED`; delivering modes need `originAddress` and `flatFeeInCents` or ascending `bands[] { label, maxDistanceMeters, feeInCents }`), `agreement` (null or `{ title, bodyText }`, body at most 20,000; `version` is the server’s), `sortOrder`, `metafields`.',
  'Unknown keys are `400`. Rules joining fields are `400` naming each path: `FIXED_DURATION` needs `durations.choicesMinutes`, `EXACT_RANGE` `durations.minMinutes` and `maxMinutes`, `FIXED_SLOT` `fixedSlots` (and only it may have them); a pool resource that is not an ACTIVE resource of the organization names `requirements.N.resourceIds.M`.',
  '`ACTIVE` needs the activation check: every requirement with an ACTIVE resource, open hours (or fixed slots), complete pricing; else `400 VALIDATION_FAILED` naming each gap.',
].join('\n\n');

export const merchantBookingServicesRouter = router({
  list: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/booking-services',
        tags: TAGS,
        summary: "The organization's booking services, in the merchant order",
        description:
          'Open to any member. Ordered by `sortOrder` ascending, then `createdAt` and `id` descending; keyset-paginated (`limit` 1 to 200, default 50; pass `nextCursor` as `cursor`; a cursor naming no service of the organization is `400`). Archived services are hidden unless `archived=true`; `status=ARCHIVED` lists only them. `search` is a case-insensitive substring of the name or description. Boolean parameters accept true/1/yes and false/0/no in any case; anything else is `400`.',
      },
    })
    .input(serviceListQuerySchema)
    .output(pageSchema(serviceSchema))
    .query(async ({ ctx, input }) =>
      listServices(
        ctx.db,
        ctx.tenant.organizationId,
        input,
        await storeCurrency(ctx, ctx.tenant.organizationId),
      ),
    ),

  create: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/booking-services',
        tags: TAGS,
        summary: 'Create a booking service',
        description: `${SERVICE_BODY}\n\nAnswers \`201\` with the service; \`pricing\` reads as a preview (\`authoritative: false\`) in the store currency. Audited as \`booking_service.created\`.`,
      },
      successStatus: 201,
      errors: ['SLUG_TAKEN'],
    })
    .input(createServiceInputSchema)
    .output(serviceSchema)
    .mutation(async ({ ctx, input }) =>
      createService(ctx.db, bookingWriteContext(ctx), input, {
        currency: await storeCurrency(ctx, ctx.tenant.organizationId),
      }),
    ),

  get: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/booking-services/{id}',
        tags: TAGS,
        summary: 'A booking service by id',
        description:
          'Open to any member; archived included. An unknown id, or one of another organization, is `404`.',
      },
    })
    .input(serviceIdInputSchema)
    .output(serviceSchema)
    .query(async ({ ctx, input }) =>
      getService(
        ctx.db,
        ctx.tenant.organizationId,
        input.id,
        await storeCurrency(ctx, ctx.tenant.organizationId),
      ),
    ),

  update: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/booking-services/{id}',
        tags: TAGS,
        summary: 'Change a booking service',
        description: [
          'Any subset of the create fields; each top-level key sent replaces that key whole (send all of `availability` to change one of its settings). Requirements sent with the `id` of one of this service’s requirements keep it; without an `id` they are new; those left out are removed. An `id` of no requirement of this service is `400`.',
          SERVICE_BODY,
          'The merged service is checked again, with the activation check while it is or becomes `ACTIVE`. `status` on an archived service is `409 INVALID_STATE_TRANSITION` (restore first). The agreement `version` grows by one when its title or text changes. Only changed keys are written, audited as `booking_service.updated` with `{ fields }`.',
        ].join('\n\n'),
      },
      errors: ['SLUG_TAKEN', 'INVALID_STATE_TRANSITION'],
    })
    .input(updateServiceInputSchema)
    .output(serviceSchema)
    .mutation(async ({ ctx, input }) => {
      const { id, ...changes } = input;
      return updateService(ctx.db, bookingWriteContext(ctx), id, changes, {
        currency: await storeCurrency(ctx, ctx.tenant.organizationId),
      });
    }),

  archive: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/booking-services/{id}/archive',
        tags: TAGS,
        summary: 'Archive a booking service',
        description:
          'No body. From any state: `ARCHIVED`, `archivedAt` set, the prior status kept in `metafields.__archivedFromStatus`. Idempotent. Answers `201` with the service. Audited as `booking_service.archived` when something changed.',
      },
      successStatus: 201,
    })
    .input(serviceActionInputSchema)
    .output(serviceSchema)
    .mutation(async ({ ctx, input }) =>
      archiveService(ctx.db, bookingWriteContext(ctx), input.id, {
        currency: await storeCurrency(ctx, ctx.tenant.organizationId),
      }),
    ),

  restore: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/booking-services/{id}/restore',
        tags: TAGS,
        summary: 'Restore an archived booking service',
        description:
          'No body. Back to the prior status, or `DRAFT` when none is stored or when `ACTIVE` would fail the activation check now. Idempotent. Answers `201` with the service. Audited as `booking_service.restored` when something changed.',
      },
      successStatus: 201,
    })
    .input(serviceActionInputSchema)
    .output(serviceSchema)
    .mutation(async ({ ctx, input }) =>
      restoreService(ctx.db, bookingWriteContext(ctx), input.id, {
        currency: await storeCurrency(ctx, ctx.tenant.organizationId),
      }),
    ),
});
