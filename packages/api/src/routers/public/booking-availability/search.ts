import { getSettings } from '@commerce/admin';
import {
  availabilitySearchRequestSchema,
  availabilitySearchResultSchema,
  searchAvailability,
} from '@commerce/bookings';
import { consumeRateLimitCost, tenantProcedure } from '../../../trpc.ts';

export const searchProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/booking-availability/search',
      tags: ['Public: bookings'],
      summary: 'Search the bookable slots of a service',
      description: [
        'Body: exactly one of `serviceId` and `serviceSlug`; `startsAt` and `endsAt` (ISO 8601 with an offset, on a whole minute; `endsAt` after `startsAt` and at most 31 calendar days later in `timezone`); `timezone` (IANA, required: the response offsets); `quantity` (within the service `partySize`); `durationMinutes` (`FIXED_SLOT`: absent; `FIXED_DURATION`: one of the choices, required when there are several; `EXACT_RANGE`: within the minimum and maximum and a multiple of the grid, or absent to test the window itself, which must then be on the grid and within the limits); `selection` `{ requirementId, resourceId, quantity }` (optional, an `OPTIONAL` or `REQUIRED` requirement and a resource of its pool): only slots where that resource has those units free. Unknown keys and every breach are `400 VALIDATION_FAILED`; an unknown, draft, archived or other store’s service is the neutral `404 RESOURCE_NOT_FOUND`.',
        'Candidates start in `[startsAt, endsAt)` (ends may lie beyond): the fixed slots on their weekdays, or every `startIntervalMinutes` from local midnight in the service timezone. A local time skipped by a daylight-saving change gives no slot, a repeated one its first occurrence. Dropped: those outside the hours policy (weekly hours with exceptions; fixed slots only by closures), starting before now + lead time or at or after now + maximum advance; then, widened by the buffers, those a requirement cannot meet for `quantity` from live claims (free units: capacity minus the peak of overlapping claims).',
        'Answers `{ serviceId, slots, truncated }`, slots sorted by `startsAt`, each with `startsAt` and `endsAt` in the request timezone, `pricing` (`authoritative: false`, `currency`, `subtotalInCents`, `depositInCents` for `DEPOSIT` services else null; no delivery or tax) and `resourceOptions` `{ requirementId, resourceId, available }` for `OPTIONAL` and `REQUIRED` requirements (resources with enough free units). At most 1,000 slots (or `limit`, 1 to 1,000) and 20,000 options: beyond, the earliest come with `truncated: true`. With `limit`, the answer also carries `nextStartsAt`: the start of the first slot left out (null on the last page); the next page is the same search with it as `startsAt`.',
        'Rate-limited per store and client like the other public reads, and by its own budget per store and client: a search costs its days (started 24-hour periods of the window) times the resources of the service’s pools, out of `RATE_LIMIT_AVAILABILITY_SEARCH_UNITS_PER_MINUTE` (default 10,000) units a minute; a `/trpc` batch pays for each search in it. Beyond: `429 RATE_LIMIT_EXCEEDED` with `Retry-After`. A large answer is compressed (gzip or deflate) when the request sends `Accept-Encoding` naming one of them.',
      ].join('\n\n'),
    },
    rateLimit: 'public-read',
  })
  .input(availabilitySearchRequestSchema)
  .output(availabilitySearchResultSchema)
  .mutation(async ({ ctx, input }) => {
    const at = ctx.clock.now();
    const { organizationId } = ctx.tenant;
    // Read with the service; the settings' defaults only when the store names no currency.
    const fallback = async () => (await getSettings(ctx.db, organizationId, at)).checkoutSettings.currency;
    return searchAvailability(
      ctx.db,
      { organizationId, at },
      {
        request: input,
        currency: { fallback },
        beforeSearch: (cost) => consumeRateLimitCost(ctx, 'public-availability-search', cost.units),
      },
    );
  });
