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
        'Candidates start in `[startsAt, endsAt)`: the fixed slots, or every start interval from local midnight in the service timezone (a local time a daylight-saving change skips gives no slot; a repeated one, its first occurrence). Dropped are those outside the service hours and closures, inside the lead time or beyond the maximum advance, and those a requirement cannot meet for `quantity` from live claims, buffers included. An unknown, draft, archived or other store’s service is the neutral `404`.',
        'Prices are a preview before delivery and tax. Beyond the slot or option cap the earliest come with `truncated: true`; with `limit`, `nextStartsAt` is where the next page starts.',
        'Besides the public-read limit, a search costs its days times the resources of the service’s pools, out of RATE_LIMIT_AVAILABILITY_SEARCH_UNITS_PER_MINUTE units per store and client (a `/trpc` batch pays for each search): beyond, `429` with `Retry-After`.',
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
