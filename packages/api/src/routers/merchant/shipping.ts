import {
  archiveShippingRate,
  archiveShippingZone,
  createShippingRate,
  createShippingRateInputSchema,
  createShippingZone,
  createShippingZoneInputSchema,
  getShippingRate,
  getShippingZone,
  listShippingZones,
  restoreShippingRate,
  restoreShippingZone,
  type ShippingWriteContext,
  shippingRateIdInputSchema,
  shippingRateReadInputSchema,
  shippingRateSchema,
  shippingZoneIdInputSchema,
  shippingZoneListQuerySchema,
  shippingZoneReadInputSchema,
  shippingZoneSchema,
  updateShippingRate,
  updateShippingRateInputSchema,
  updateShippingZone,
  updateShippingZoneInputSchema,
} from '@commerce/catalog';
import { pageSchema } from '@commerce/core';
import type { MerchantUser } from '@commerce/db';
import type { ApiContext } from '../../context.ts';
import { merchantProcedure, merchantProcedureWith, router } from '../../trpc.ts';

const TAGS = ['Merchant: shipping'];

const writer = merchantProcedureWith('settings:manage');

function writeContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): ShippingWriteContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}

const ZONE_READ_NOTE =
  'The zone carries every one of its rates, archived ones included (with `archivedAt`), ordered by `sortOrder`, then `name`.';

export const merchantShippingRouter = router({
  listZones: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/shipping/zones',
        tags: TAGS,
        summary: 'Shipping zones with their rates',
        description: [
          'Open to any member. Zones ordered by `sortOrder`, then `name`, then `id`, each with its rates inlined (by `sortOrder`, then `name`).',
          'By default only active zones with their active rates; `archived=true` includes archived zones and archived rates, each with `archivedAt`.',
          'Keyset-paginated: pass `nextCursor` as `cursor` for the next page (limit 1 to 200, default 50); a cursor that names no zone of the organization is `400 VALIDATION_FAILED`.',
        ].join('\n\n'),
      },
    })
    .input(shippingZoneListQuerySchema)
    .output(pageSchema(shippingZoneSchema))
    .query(({ ctx, input }) => listShippingZones(ctx.db, ctx.tenant.organizationId, input)),

  getZone: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/shipping/zones/{id}',
        tags: TAGS,
        summary: 'One shipping zone, archived or not',
        description: `Open to any member. ${ZONE_READ_NOTE} An unknown id, or one of another organization, is \`404\`.`,
      },
    })
    .input(shippingZoneReadInputSchema)
    .output(shippingZoneSchema)
    .query(({ ctx, input }) => getShippingZone(ctx.db, ctx.tenant.organizationId, input.id)),

  createZone: writer
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/shipping/zones',
        tags: TAGS,
        summary: 'Create a shipping zone',
        description:
          'Body `{ name, countries, sortOrder? }`. `countries` are ISO 3166-1 alpha-2 codes (lower case accepted, stored upper case, repeats kept once; an unassigned code is `400`); the list may be empty while the zone is being configured. Answers the zone with `rates: []`. Audited as `shipping_zone.created`.',
      },
      successStatus: 201,
    })
    .input(createShippingZoneInputSchema)
    .output(shippingZoneSchema)
    .mutation(({ ctx, input }) => createShippingZone(ctx.db, writeContext(ctx), input)),

  updateZone: writer
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/shipping/zones/{id}',
        tags: TAGS,
        summary: 'Change a shipping zone',
        description: `Body: any of \`name\`, \`countries\`, \`sortOrder\`. Sending \`countries\` replaces the whole list. Archived zones can be edited. Audited as \`shipping_zone.updated\` with the names of the changed fields; a change that changes nothing (or an empty body) records nothing. ${ZONE_READ_NOTE}`,
      },
    })
    .input(updateShippingZoneInputSchema)
    .output(shippingZoneSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...changes } = input;
      return updateShippingZone(ctx.db, writeContext(ctx), id, changes);
    }),

  archiveZone: writer
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/shipping/zones/{id}/archive',
        tags: TAGS,
        summary: 'Archive a shipping zone',
        description: `The zone and its rates leave the public list at once; the rates keep their own state. Idempotent: archiving an archived zone answers it unchanged. Audited as \`shipping_zone.archived\` when it changes. ${ZONE_READ_NOTE}`,
      },
      successStatus: 201,
    })
    .input(shippingZoneIdInputSchema)
    .output(shippingZoneSchema)
    .mutation(({ ctx, input }) => archiveShippingZone(ctx.db, writeContext(ctx), input.id)),

  restoreZone: writer
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/shipping/zones/{id}/restore',
        tags: TAGS,
        summary: 'Restore an archived shipping zone',
        description: `The zone shows publicly again with its active rates. Idempotent: restoring an active zone answers it unchanged. Audited as \`shipping_zone.restored\` when it changes. ${ZONE_READ_NOTE}`,
      },
      successStatus: 201,
    })
    .input(shippingZoneIdInputSchema)
    .output(shippingZoneSchema)
    .mutation(({ ctx, input }) => restoreShippingZone(ctx.db, writeContext(ctx), input.id)),

  createRate: writer
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/shipping/zones/{id}/rates',
        tags: TAGS,
        summary: 'Add a flat rate to a shipping zone',
        description:
          'Body `{ name, priceInCents, minimumSubtotalInCents?, estimatedDelivery?, sortOrder? }`. A rate cannot be added to an archived zone: `409 INVALID_STATE_TRANSITION` (restore the zone first). Audited as `shipping_rate.created`.',
      },
      successStatus: 201,
      errors: ['INVALID_STATE_TRANSITION'],
    })
    .input(createShippingRateInputSchema)
    .output(shippingRateSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...rate } = input;
      return createShippingRate(ctx.db, writeContext(ctx), id, rate);
    }),

  getRate: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/shipping/rates/{rateId}',
        tags: TAGS,
        summary: 'One shipping rate, archived or not',
        description: 'Open to any member. An unknown id, or one of another organization, is `404`.',
      },
    })
    .input(shippingRateReadInputSchema)
    .output(shippingRateSchema)
    .query(({ ctx, input }) => getShippingRate(ctx.db, ctx.tenant.organizationId, input.rateId)),

  updateRate: writer
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/shipping/rates/{rateId}',
        tags: TAGS,
        summary: 'Change a shipping rate',
        description:
          'Body: any of `name`, `priceInCents`, `minimumSubtotalInCents`, `estimatedDelivery`, `sortOrder`; `null` clears `minimumSubtotalInCents` or `estimatedDelivery`. Archived rates, and rates of archived zones, can be edited. Audited as `shipping_rate.updated` with the names of the changed fields; a change that changes nothing (or an empty body) records nothing.',
      },
    })
    .input(updateShippingRateInputSchema)
    .output(shippingRateSchema)
    .mutation(({ ctx, input }) => {
      const { rateId, ...changes } = input;
      return updateShippingRate(ctx.db, writeContext(ctx), rateId, changes);
    }),

  archiveRate: writer
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/shipping/rates/{rateId}/archive',
        tags: TAGS,
        summary: 'Archive a shipping rate',
        description:
          'The rate leaves the public list at once. Idempotent: archiving an archived rate answers it unchanged. Audited as `shipping_rate.archived` when it changes.',
      },
      successStatus: 201,
    })
    .input(shippingRateIdInputSchema)
    .output(shippingRateSchema)
    .mutation(({ ctx, input }) => archiveShippingRate(ctx.db, writeContext(ctx), input.rateId)),

  restoreRate: writer
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/shipping/rates/{rateId}/restore',
        tags: TAGS,
        summary: 'Restore an archived shipping rate',
        description:
          'Idempotent: restoring an active rate answers it unchanged. A rate of an archived zone can be restored; it shows publicly once its zone is restored. Audited as `shipping_rate.restored` when it changes.',
      },
      successStatus: 201,
    })
    .input(shippingRateIdInputSchema)
    .output(shippingRateSchema)
    .mutation(({ ctx, input }) => restoreShippingRate(ctx.db, writeContext(ctx), input.rateId)),
});
