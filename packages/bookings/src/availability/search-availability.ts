import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { readLiveClaims } from '../capacity/live-claims.ts';
import type { BookingClockContext } from '../context.ts';
import type { CheckoutTerms } from '../pricing/price.ts';
import type { DeliverySettings } from '../services/schemas.ts';
import { serviceNotFound } from '../services/service-read.ts';
import { formatInstant } from '../time/zone.ts';
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
 * `POST /public/booking-availability/search`: the `ACTIVE` service by
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
  /** Only when the request set `limit`: where the next page starts (null on the last page). */
  nextStartsAt?: string | null;
}

/** What a search costs: its days (started 24-hour periods) times the resources of the service's pools. */
export interface AvailabilitySearchCost {
  days: number;
  resources: number;
  units: number;
}

/**
 * The store currency: given, or read with the service from the tenant's settings, `fallback`
 * answering (it applies the settings' defaults) only when they do not name one.
 */
export type CurrencySource = string | { fallback: () => Promise<string> };

/** The availability view of an `ACTIVE` service, or the neutral 404. */
export async function loadBookableService(
  db: Kysely<Database>,
  organizationId: string,
  reference: { serviceId?: string | undefined; serviceSlug?: string | undefined },
  currency: CurrencySource,
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

interface StoredRequirement {
  id: string;
  unitsMode: 'PER_BOOKING' | 'PER_PARTICIPANT';
  unitsCount: number | null;
  selection: 'AUTO' | 'OPTIONAL' | 'REQUIRED';
  allowSplit: boolean;
  /** The pool's ACTIVE resources, in preference order. */
  resourceIds: string[];
}

/** JSON built by the database: PGlite may hand it over as text. */
const fromJson = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/**
 * `loadBookableService`, answering undefined where it answers the neutral 404. One statement: the
 * service, its requirements with their pools' ACTIVE resources (archived resources leave every
 * pool for new claims), and the store currency.
 */
export async function findBookableService(
  db: Kysely<Database>,
  organizationId: string,
  reference: { serviceId?: string | undefined; serviceSlug?: string | undefined },
  currency: CurrencySource,
): Promise<BookableServiceRead | undefined> {
  const match =
    reference.serviceId !== undefined
      ? sql`s.id = ${reference.serviceId}`
      : sql`s.slug = ${reference.serviceSlug ?? ''}`;
  const { rows } = await sql<{
    id: string;
    period_mode: BookableService['periodMode'];
    timezone: string;
    durations: unknown;
    fixed_slots: unknown;
    availability: unknown;
    party_size_min: number;
    party_size_max: number;
    pricing: unknown;
    checkout: unknown;
    delivery: unknown;
    store_currency: string | null;
    requirements: StoredRequirement[] | string;
  }>`
    select s.id, s.period_mode, s.timezone, s.durations, s.fixed_slots, s.availability,
      s.party_size_min, s.party_size_max, s.pricing, s.checkout, s.delivery,
      (select o.checkout_settings ->> 'currency' from organization_settings o
        where o.organization_id = s.organization_id) as store_currency,
      coalesce((
        select json_agg(json_build_object(
            'id', q.id, 'unitsMode', q.units_mode, 'unitsCount', q.units_count,
            'selection', q.selection, 'allowSplit', q.allow_split,
            'resourceIds', (
              select coalesce(json_agg(p.resource_id order by p.position), '[]'::json)
              from booking_requirement_resources p
              join booking_resources r on r.organization_id = p.organization_id and r.id = p.resource_id
              where p.organization_id = q.organization_id and p.requirement_id = q.id and r.status = 'ACTIVE'))
          order by q.position)
        from booking_requirements q
        where q.organization_id = s.organization_id and q.service_id = s.id
      ), '[]'::json) as requirements
    from booking_services s
    where s.organization_id = ${organizationId} and s.status = 'ACTIVE' and ${match}
  `.execute(db);
  const row = rows[0];
  if (!row) return undefined;

  const requirements = fromJson(row.requirements).map(
    (requirement): BookingRequirement => ({
      id: requirement.id,
      resourceIds: requirement.resourceIds,
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
    currency: typeof currency === 'string' ? currency : (row.store_currency ?? (await currency.fallback())),
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
  input: {
    request: AvailabilitySearchRequest;
    currency: CurrencySource;
    /**
     * Called once the service is known and the request valid, before the claims are read and the
     * slots computed: a refusal here (a spent search budget) costs no more work.
     */
    beforeSearch?: (cost: AvailabilitySearchCost) => Promise<void>;
  },
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
  if (input.beforeSearch) {
    const days = Math.max(1, Math.ceil((endsAt - startsAt) / MINUTES_PER_DAY));
    const resources = Math.max(1, poolIds.length);
    await input.beforeSearch({ days, resources, units: days * resources });
  }
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
    limit: request.limit,
    claims,
  });
  const { nextStart, ...page } = result;
  if (request.limit === undefined) return { serviceId: id, ...page };
  return {
    serviceId: id,
    ...page,
    nextStartsAt: nextStart === undefined ? null : formatInstant(nextStart, request.timezone),
  };
}
