import {
  addBlackout,
  type BookingWriteContext,
  blackoutInputSchema,
  blackoutPathInputSchema,
  blackoutSchema,
  createResource,
  createResourceInputSchema,
  getResource,
  listResources,
  removeBlackout,
  resourceActionInputSchema,
  resourceIdInputSchema,
  resourceListQuerySchema,
  resourceSchema,
  setResourceArchived,
  updateResource,
  updateResourceInputSchema,
} from '@commerce/bookings';
import { pageSchema } from '@commerce/core';
import type { MerchantUser } from '@commerce/db';
import { z } from 'zod';
import type { ApiContext } from '../../context.ts';
import { merchantProcedure, merchantProcedureWith, router } from '../../trpc.ts';

const TAGS = ['Merchant: booking resources'];

/** The tenant, the merchant user and the request's instant of a bookings write. */
export function bookingWriteContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): BookingWriteContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}

const RESOURCE_BODY =
  'Body: `name` (1 to 200, trimmed), `kind` (`STAFF`, `SPACE`, `EQUIPMENT`, `VEHICLE` or `OTHER`), `capacity` (units in use at one instant, shared by every service using the resource: 1 to 10,000; default 1), `userId` (`STAFF` only: the user id of an active member, for assignment; null for none; otherwise `400`), `metafields` (a JSON object of at most 100 keys and 16,384 bytes; keys starting with `__` are `400`). Unknown keys are `400`.';

export const merchantBookingResourcesRouter = router({
  list: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/booking-resources',
        tags: TAGS,
        summary: "The organization's bookable resources",
        description:
          'Open to any member. Ordered by `name`, then `id`; keyset-paginated (`limit` 1 to 200, default 50; pass `nextCursor` as `cursor`; a cursor naming no resource of the organization is `400`). `status` (`ACTIVE` or `ARCHIVED`) and `kind` filter exactly; without `status` archived resources are listed too. `search` is a case-insensitive substring of the name.',
      },
    })
    .input(resourceListQuerySchema)
    .output(pageSchema(resourceSchema))
    .query(({ ctx, input }) => listResources(ctx.db, ctx.tenant.organizationId, input)),

  create: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/booking-resources',
        tags: TAGS,
        summary: 'Create a resource',
        description: `${RESOURCE_BODY}\n\nA new resource is \`ACTIVE\`. Answers \`201\`. Audited as \`booking_resource.created\`.`,
      },
      successStatus: 201,
    })
    .input(createResourceInputSchema)
    .output(resourceSchema)
    .mutation(({ ctx, input }) => createResource(ctx.db, bookingWriteContext(ctx), input)),

  get: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/booking-resources/{id}',
        tags: TAGS,
        summary: 'A resource by id',
        description:
          'Open to any member; archived included. An unknown id, or one of another organization, is `404`.',
      },
    })
    .input(resourceIdInputSchema)
    .output(resourceSchema)
    .query(({ ctx, input }) => getResource(ctx.db, ctx.tenant.organizationId, input.id)),

  update: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/booking-resources/{id}',
        tags: TAGS,
        summary: 'Change a resource',
        description: [
          `Any subset of the create fields. ${RESOURCE_BODY}`,
          'A `capacity` below the peak of the live claims from now on (holds, bookings, blackouts) is `409 CAPACITY_UNAVAILABLE` with `details.conflicts[] { kind, id, startsAt, endsAt, quantity }`, the claims in the way; the check and the write hold the lock every claim takes, so no claim slips in between.',
          'Only changed fields are written, audited as `booking_resource.updated` with `{ fields }`. An unknown id, or one of another organization, is `404`.',
        ].join('\n\n'),
      },
      errors: ['CAPACITY_UNAVAILABLE', 'STALE_STATE'],
    })
    .input(updateResourceInputSchema)
    .output(resourceSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...changes } = input;
      return updateResource(ctx.db, bookingWriteContext(ctx), id, changes);
    }),

  archive: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/booking-resources/{id}/archive',
        tags: TAGS,
        summary: 'Archive a resource',
        description:
          'No body. `status` becomes `ARCHIVED` and `archivedAt` is set: the resource leaves every pool for new claims; existing claims stay. Idempotent. Answers `201` with the resource. Audited as `booking_resource.archived` when something changed.',
      },
      successStatus: 201,
    })
    .input(resourceActionInputSchema)
    .output(resourceSchema)
    .mutation(({ ctx, input }) => setResourceArchived(ctx.db, bookingWriteContext(ctx), input.id, true)),

  restore: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/booking-resources/{id}/restore',
        tags: TAGS,
        summary: 'Restore an archived resource',
        description:
          'No body. `status` becomes `ACTIVE` and `archivedAt` is cleared. Idempotent. Answers `201` with the resource. Audited as `booking_resource.restored` when something changed.',
      },
      successStatus: 201,
    })
    .input(resourceActionInputSchema)
    .output(resourceSchema)
    .mutation(({ ctx, input }) => setResourceArchived(ctx.db, bookingWriteContext(ctx), input.id, false)),

  addBlackout: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/booking-resources/{id}/blackouts',
        tags: TAGS,
        summary: 'Block a resource for an interval',
        description: [
          'Body `{ startsAt, endsAt, reason? }`: ISO 8601 instants with an offset on a whole minute, `endsAt` after `startsAt`; `reason` at most 500. Unknown keys are `400`.',
          'The blackout claims the whole capacity of the resource over `[startsAt, endsAt)` (whatever the capacity becomes later). Live holds, bookings or other blackouts in the way are `409 CAPACITY_UNAVAILABLE` with `details.conflicts[] { kind, id, startsAt, endsAt, quantity }`. Answers `201` with the blackout. Audited as `booking_resource.blackout_added`.',
        ].join('\n\n'),
      },
      successStatus: 201,
      errors: ['CAPACITY_UNAVAILABLE', 'STALE_STATE'],
    })
    .input(blackoutInputSchema)
    .output(blackoutSchema)
    .mutation(({ ctx, input }) => addBlackout(ctx.db, bookingWriteContext(ctx), input)),

  removeBlackout: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/merchant/booking-resources/{id}/blackouts/{blackoutId}',
        tags: TAGS,
        summary: 'Remove a blackout',
        description:
          "Releases the blackout's claim. Answers `204`, also when the blackout was already removed (idempotent); a blackout that never existed on this resource, or another organization's, is `404`. Audited as `booking_resource.blackout_removed` when something changed.",
      },
      successStatus: 204,
      errors: ['STALE_STATE'],
    })
    .input(blackoutPathInputSchema)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await removeBlackout(ctx.db, bookingWriteContext(ctx), input.id, input.blackoutId);
    }),
});
