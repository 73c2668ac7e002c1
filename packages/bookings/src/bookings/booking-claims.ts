import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  type Allocation,
  assignResources,
  type BookingRequirement,
  type ResourceSelection,
} from '../availability/assign.ts';
import { freeUnits, resourceLoad } from '../availability/capacity.ts';
import type { BookableService } from '../availability/rules.ts';
import {
  availabilityRulesSchema,
  durationsSchema,
  fixedSlotSchema,
  pricingSchema,
} from '../availability/schemas.ts';
import { readLiveClaims } from '../capacity/live-claims.ts';
import type { BookingClockContext } from '../context.ts';
import type { CheckoutTerms } from '../pricing/price.ts';
import { type DeliverySettings, deliverySettingsSchema } from '../services/schemas.ts';
import { loadRequirements, serviceNotFound } from '../services/service-read.ts';

/**
 * What a booking claims: its service's requirements over its interval
 * widened by the buffers, assigned from the live claims read under the
 * capacity lock. Approval, reschedule and merchant creation plan here; the
 * capacity trigger keeps the last word on the insert.
 */

export const MS_PER_MINUTE = 60_000;

const storedCheckoutSchema = z.object({
  approvalMode: z.enum(['AUTOMATIC', 'MANUAL']).catch('AUTOMATIC'),
  paymentMode: z.enum(['PAY_NOW', 'DEPOSIT', 'PAY_LATER']),
  deposit: z.union([z.object({ percent: z.number() }), z.object({ amountInCents: z.number() })]).nullish(),
  paymentWindowMinutes: z.number().int().catch(30),
  approvedPaymentWindowHours: z.number().int().catch(24),
  requestExpiryHours: z.number().int().catch(72),
});

/** A service as the booking transitions need it, whatever its status (a booking outlives its service's changes). */
export interface BookingServiceTerms {
  id: string;
  status: 'ACTIVE' | 'DRAFT' | 'ARCHIVED';
  slug: string;
  name: string;
  rules: BookableService;
  checkout: z.output<typeof storedCheckoutSchema>;
  policies: unknown;
  /** Its delivery settings now: a merchant booking is rated against them. */
  delivery: DeliverySettings;
  /** Requirement id → its selection mode and name. */
  requirementInfo: Map<string, { name: string; selection: 'AUTO' | 'OPTIONAL' | 'REQUIRED' }>;
}

export async function loadServiceTerms(
  db: Kysely<Database>,
  organizationId: string,
  serviceId: string,
  currency: string,
): Promise<BookingServiceTerms> {
  const row = await db
    .selectFrom('booking_services')
    .select([
      'id',
      'status',
      'slug',
      'name',
      'period_mode',
      'timezone',
      'durations',
      'fixed_slots',
      'availability',
      'party_size_min',
      'party_size_max',
      'pricing',
      'checkout',
      'policies',
      'delivery',
    ])
    .where('organization_id', '=', organizationId)
    .where('id', '=', serviceId)
    .executeTakeFirst();
  if (!row) throw serviceNotFound();
  const requirementRows = (await loadRequirements(db, organizationId, [row.id])).get(row.id) ?? [];
  // Archived resources leave every pool for new claims: the pools are their ACTIVE resources.
  const requirements = requirementRows.map(
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
  const checkout = storedCheckoutSchema.parse(row.checkout);
  return {
    id: row.id,
    status: row.status,
    slug: row.slug,
    name: row.name,
    rules: {
      periodMode: row.period_mode,
      timezone: row.timezone,
      durations: durationsSchema.parse(row.durations),
      fixedSlots: row.period_mode === 'FIXED_SLOT' ? z.array(fixedSlotSchema).parse(row.fixed_slots) : null,
      availability: availabilityRulesSchema.parse(row.availability),
      partySize: { min: row.party_size_min, max: row.party_size_max },
      pricing: pricingSchema.nullable().parse(row.pricing),
      checkout: checkout as CheckoutTerms,
      currency,
      requirements,
    },
    checkout,
    policies: row.policies,
    delivery: deliverySettingsSchema.parse(row.delivery),
    requirementInfo: new Map(
      requirementRows.map((requirement) => [
        requirement.id,
        { name: requirement.name, selection: requirement.selection },
      ]),
    ),
  };
}

/** The claimed interval of a booking: its own widened by the service's buffers, in epoch minutes. */
export function claimWindow(
  rules: Pick<BookableService, 'availability'>,
  startsAt: Date,
  endsAt: Date,
): { claimStart: number; claimEnd: number } {
  return {
    claimStart: startsAt.getTime() / MS_PER_MINUTE - rules.availability.bufferBeforeMinutes,
    claimEnd: endsAt.getTime() / MS_PER_MINUTE + rules.availability.bufferAfterMinutes,
  };
}

export type ClaimPlan =
  | { ok: true; allocations: Allocation[]; claimStart: number; claimEnd: number }
  | { ok: false; requirementId: string; resourceId: string | null };

/**
 * Assigns the service's requirements for `quantity` over the claim window from
 * the live claims at `ctx.at` (a booking being moved releases its own claims
 * first, in the same transaction). Explicit `selections` win; then the
 * `preferred` resources (the booking's present allocations) are tried whole,
 * then only those the customer chose (non-`AUTO`), then automatic assignment of
 * the rest. Run it under the capacity lock of every pool resource for a
 * decision that holds until commit.
 */
export async function planClaims(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  terms: BookingServiceTerms,
  input: {
    startsAt: Date;
    endsAt: Date;
    quantity: number;
    selections?: readonly ResourceSelection[];
    preferred?: readonly (Allocation & { selection?: string })[];
  },
): Promise<ClaimPlan> {
  const { claimStart, claimEnd } = claimWindow(terms.rules, input.startsAt, input.endsAt);
  const pool = poolOf(terms);
  const claims = await readLiveClaims(db, ctx, pool, {
    startsAt: new Date(claimStart * MS_PER_MINUTE),
    endsAt: new Date(claimEnd * MS_PER_MINUTE),
  });
  const loads = new Map(
    claims
      .filter((resource) => resource.status === 'ACTIVE')
      .map((resource) => [resource.resourceId, resourceLoad(resource)]),
  );
  const free = (resourceId: string) => {
    const load = loads.get(resourceId);
    return load ? freeUnits(load, claimStart, claimEnd) : 0;
  };
  const explicit = input.selections ?? [];
  const explicitRequirements = new Set(explicit.map((selection) => selection.requirementId));
  const inPool = (allocation: Allocation) =>
    terms.rules.requirements.some(
      (requirement) =>
        requirement.id === allocation.requirementId &&
        requirement.resourceIds.includes(allocation.resourceId),
    );
  const preferred = (input.preferred ?? []).filter(
    (allocation) => !explicitRequirements.has(allocation.requirementId) && inPool(allocation),
  );
  const attempts: ResourceSelection[][] = [
    [...explicit, ...preferred],
    [...explicit, ...preferred.filter((allocation) => allocation.selection !== 'AUTO')],
    [...explicit],
  ];
  let failure: ClaimPlan | null = null;
  const tried = new Set<string>();
  for (const selections of attempts) {
    const signature = JSON.stringify(selections);
    if (tried.has(signature)) continue;
    tried.add(signature);
    const assignment = assignResources(terms.rules.requirements, input.quantity, free, selections);
    if (assignment.ok) return { ok: true, allocations: assignment.allocations, claimStart, claimEnd };
    failure ??= { ok: false, requirementId: assignment.requirementId, resourceId: assignment.resourceId };
  }
  return failure!;
}

/** Every resource of the service's pools: the set the capacity lock takes. */
export function poolOf(terms: BookingServiceTerms): string[] {
  return [...new Set(terms.rules.requirements.flatMap((requirement) => requirement.resourceIds))];
}

export function capacityUnavailable(plan: Extract<ClaimPlan, { ok: false }>): AppError {
  return new AppError('CAPACITY_UNAVAILABLE', undefined, {
    requirementId: plan.requirementId,
    ...(plan.resourceId !== null ? { resourceId: plan.resourceId } : {}),
  });
}
