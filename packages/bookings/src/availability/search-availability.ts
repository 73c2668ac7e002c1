import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { readLiveClaims } from '../capacity/live-claims.ts';
import type { BookingClockContext } from '../context.ts';
import type { CheckoutTerms } from '../pricing/price.ts';
import type { DeliverySettings } from '../services/schemas.ts';
import { loadRequirements, serviceNotFound } from '../services/service-read.ts';
import type { BookingRequirement } from './assign.ts';
import type { ClaimArrays } from './capacity.ts';
import type { BookableService } from './rules.ts';
import {
  availabilityRulesSchema,
  durationsSchema,
  fixedSlotSchema,
  MINUTES_PER_DAY,
  parseInstant,
  pricingSchema,
} from './schemas.ts';
import { searchSlots } from './search.ts';
import type { AvailabilitySearchRequest } from './search-schemas.ts';
import { validateSearch } from './validate.ts';

/**
 * `POST /public/booking-availability/search` (14.8): the `ACTIVE` service by
 * id or slug, its requirements with their `ACTIVE` pool resources, and every
 * pool resource's live claims in one compact read; the rest is the pure search.
 */

const storedCheckoutSchema = z.object({
  paymentMode: z.enum(['PAY_NOW', 'DEPOSIT', 'PAY_LATER']),
  deposit: z.union([z.object({ percent: z.number() }), z.object({ amountInCents: z.number() })]).nullish(),
});

export interface AvailabilitySearchResult {
  serviceId: string;
  slots: ReturnType<typeof searchSlots>['slots'];
  truncated: boolean;
}

/** The availability view of an `ACTIVE` service, or the neutral 404. */
export async function loadBookableService(
  db: Kysely<Database>,
  organizationId: string,
  reference: { serviceId?: string | undefined; serviceSlug?: string | undefined },
  currency: string,
): Promise<BookableServiceRead> {
  const found = await findBookableService(db, organizationId, reference, currency);
  if (!found) throw serviceNotFound();
  return found;
}

export interface BookableServiceRead {
  id: string;
  service: BookableService;
  /** What a hold needs of the service beyond the availability view, read in the same statement. */
  holdTerms: { holdMinutes: number; delivery: DeliverySettings };
}

/** `loadBookableService`, answering undefined where it answers the neutral 404. */
export async function findBookableService(
  db: Kysely<Database>,
  organizationId: string,
  reference: { serviceId?: string | undefined; serviceSlug?: string | undefined },
  currency: string,
): Promise<BookableServiceRead | undefined> {
  let query = db
    .selectFrom('booking_services')
    .select([
      'id',
      'period_mode',
      'timezone',
      'durations',
      'fixed_slots',
      'availability',
      'party_size_min',
      'party_size_max',
      'pricing',
      'checkout',
      'delivery',
    ])
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'ACTIVE');
  query =
    reference.serviceId !== undefined
      ? query.where('id', '=', reference.serviceId)
      : query.where('slug', '=', reference.serviceSlug ?? '');
  const row = await query.executeTakeFirst();
  if (!row) return undefined;

  // Archived resources leave every pool for new claims (14.4): the pools are their ACTIVE resources.
  const requirements = ((await loadRequirements(db, organizationId, [row.id])).get(row.id) ?? []).map(
    (requirement): BookingRequirement => ({
      id: requirement.id,
      resourceIds: requirement.activeResources.map((resource) => resource.id),
      units:
        requirement.unitsMode === 'PER_BOOKING'
          ? { mode: 'PER_BOOKING', count: requirement.unitsCount ?? 1 }
          : { mode: 'PER_PARTICIPANT' },
      selection: requirement.selection,
      allowSplit: requirement.allowSplit,
    }),
  );

  const service: BookableService = {
    periodMode: row.period_mode,
    timezone: row.timezone,
    durations: durationsSchema.parse(row.durations),
    fixedSlots: row.period_mode === 'FIXED_SLOT' ? z.array(fixedSlotSchema).parse(row.fixed_slots) : null,
    availability: availabilityRulesSchema.parse(row.availability),
    partySize: { min: row.party_size_min, max: row.party_size_max },
    pricing: pricingSchema.nullable().parse(row.pricing),
    checkout: storedCheckoutSchema.parse(row.checkout) as CheckoutTerms,
    currency,
    requirements,
  };
  return {
    id: row.id,
    service,
    holdTerms: {
      holdMinutes: (row.checkout as { holdMinutes: number }).holdMinutes,
      delivery: row.delivery as DeliverySettings,
    },
  };
}

/** The longest interval a candidate can span, with a day's margin for a change of offset. */
function longestSpanMinutes(
  service: BookableService,
  durationMinutes: number | null,
  window: number,
): number {
  const longest =
    service.periodMode === 'FIXED_SLOT'
      ? Math.max(0, ...(service.fixedSlots ?? []).map((slot) => slot.durationMinutes))
      : (durationMinutes ?? window);
  return longest + MINUTES_PER_DAY;
}

export async function searchAvailability(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  input: { request: AvailabilitySearchRequest; currency: string },
): Promise<AvailabilitySearchResult> {
  const { request } = input;
  const { id, service } = await loadBookableService(db, ctx.organizationId, request, input.currency);
  const startsAt = (parseInstant(request.startsAt) as number) / 60_000;
  const endsAt = (parseInstant(request.endsAt) as number) / 60_000;
  const { durationMinutes } = validateSearch(service, {
    startsAt,
    endsAt,
    quantity: request.quantity,
    durationMinutes: request.durationMinutes,
    selection: request.selection,
  });

  const { bufferBeforeMinutes, bufferAfterMinutes } = service.availability;
  const claimsFrom = startsAt - bufferBeforeMinutes;
  const claimsUntil =
    endsAt + longestSpanMinutes(service, durationMinutes, endsAt - startsAt) + bufferAfterMinutes;
  const poolIds = [...new Set(service.requirements.flatMap((requirement) => requirement.resourceIds))];
  const rows = await readLiveClaims(db, ctx, poolIds, {
    startsAt: new Date(claimsFrom * 60_000),
    endsAt: new Date(claimsUntil * 60_000),
  });
  const claims = new Map<string, ClaimArrays>(
    rows.filter((row) => row.status === 'ACTIVE').map((row) => [row.resourceId, row]),
  );

  const result = searchSlots({
    service,
    now: ctx.at,
    startsAt,
    endsAt,
    timeZone: request.timezone,
    quantity: request.quantity,
    durationMinutes,
    selection: request.selection,
    claims,
  });
  return { serviceId: id, ...result };
}
