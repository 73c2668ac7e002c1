import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, type Selectable, sql } from 'kysely';
import type {
  AvailabilityRules,
  Durations,
  FixedSlot,
  PartySize,
  PeriodMode,
  Pricing,
} from '../availability/schemas.ts';
import type {
  CheckoutSettings,
  DeliverySettings,
  Policies,
  PublicServiceRead,
  ServiceRead,
} from './schemas.ts';

export type ServiceRow = Selectable<Database['booking_services']>;

export const serviceNotFound = () => AppError.notFound('Booking service not found');

/** One requirement with its pool, as one statement reads it for a page of services. */
export interface RequirementRow {
  serviceId: string;
  id: string;
  name: string;
  unitsMode: 'PER_BOOKING' | 'PER_PARTICIPANT';
  unitsCount: number | null;
  selection: 'AUTO' | 'OPTIONAL' | 'REQUIRED';
  allowSplit: boolean;
  createdAt: Date;
  resourceIds: string[];
  /** The pool's ACTIVE resources, in pool order. */
  activeResources: { id: string; name: string }[];
}

/** Every requirement of the given services with its pool, in one statement, in position order. */
export async function loadRequirements(
  db: Kysely<Database>,
  organizationId: string,
  serviceIds: readonly string[],
): Promise<Map<string, RequirementRow[]>> {
  const byService = new Map<string, RequirementRow[]>(serviceIds.map((id) => [id, []]));
  if (serviceIds.length === 0) return byService;
  const result = await sql<{
    service_id: string;
    id: string;
    name: string;
    units_mode: 'PER_BOOKING' | 'PER_PARTICIPANT';
    units_count: number | null;
    selection: 'AUTO' | 'OPTIONAL' | 'REQUIRED';
    allow_split: boolean;
    created_at: Date;
    resource_ids: string[];
    active_resources: { id: string; name: string }[] | string;
  }>`
    select q.service_id, q.id, q.name, q.units_mode, q.units_count, q.selection, q.allow_split, q.created_at,
      array_agg(p.resource_id order by p.position) as resource_ids,
      coalesce(json_agg(json_build_object('id', r.id, 'name', r.name) order by p.position)
        filter (where r.status = 'ACTIVE'), '[]'::json) as active_resources
    from booking_requirements q
    join booking_requirement_resources p on p.organization_id = q.organization_id and p.requirement_id = q.id
    join booking_resources r on r.organization_id = p.organization_id and r.id = p.resource_id
    where q.organization_id = ${organizationId} and q.service_id = any(${[...serviceIds]}::text[])
    group by q.organization_id, q.id
    order by q.service_id, q.position
  `.execute(db);
  for (const row of result.rows) {
    byService.get(row.service_id)?.push({
      serviceId: row.service_id,
      id: row.id,
      name: row.name,
      unitsMode: row.units_mode,
      unitsCount: row.units_count,
      selection: row.selection,
      allowSplit: row.allow_split,
      createdAt: row.created_at,
      resourceIds: row.resource_ids,
      activeResources:
        typeof row.active_resources === 'string' ? JSON.parse(row.active_resources) : row.active_resources,
    });
  }
  return byService;
}

function unitsOf(requirement: RequirementRow) {
  return requirement.unitsMode === 'PER_BOOKING'
    ? { mode: 'PER_BOOKING' as const, count: requirement.unitsCount! }
    : { mode: 'PER_PARTICIPANT' as const };
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** The merchant read of a service. Pricing is a preview in the store currency. */
export function toServiceRead(
  row: ServiceRow,
  requirements: RequirementRow[],
  currency: string,
): ServiceRead {
  const pricing = row.pricing as Pricing | null;
  const agreement = row.agreement as { title: string; bodyText: string } | null;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    status: row.status,
    itemId: row.item_id,
    periodMode: row.period_mode as PeriodMode,
    timezone: row.timezone,
    durations: row.durations as Durations,
    fixedSlots: row.period_mode === 'FIXED_SLOT' ? (row.fixed_slots as FixedSlot[]) : null,
    availability: row.availability as AvailabilityRules,
    partySize: { min: row.party_size_min, max: row.party_size_max } satisfies PartySize,
    requirements: requirements.map((requirement) => ({
      id: requirement.id,
      name: requirement.name,
      resourceIds: requirement.resourceIds,
      units: unitsOf(requirement),
      selection: requirement.selection,
      allowSplit: requirement.allowSplit,
    })),
    requiresResourceSelection: requirements.some((requirement) => requirement.selection === 'REQUIRED'),
    pricing: pricing === null ? null : { ...pricing, authoritative: false, currency },
    checkout: row.checkout as CheckoutSettings,
    policies: row.policies as Policies,
    delivery: row.delivery as DeliverySettings,
    agreement:
      agreement === null
        ? null
        : { title: agreement.title, version: row.agreement_version, bodyText: agreement.bodyText },
    sortOrder: row.sort_order,
    metafields: row.metafields,
    archivedAt: row.archived_at === null ? null : iso(row.archived_at),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/**
 * The public read: no `sortOrder`, `metafields` or archive fields, no
 * exception notes, the delivery origin as city and country only, and `AUTO`
 * requirements without their pool; the pools customers choose from list
 * their ACTIVE resources by id and name.
 */
export function toPublicServiceRead(
  row: ServiceRow,
  requirements: RequirementRow[],
  currency: string,
): PublicServiceRead {
  const {
    sortOrder,
    metafields,
    archivedAt,
    requirements: _,
    delivery,
    availability,
    ...read
  } = toServiceRead(row, requirements, currency);
  void sortOrder;
  void metafields;
  void archivedAt;
  return {
    ...read,
    availability: {
      ...availability,
      exceptions: availability.exceptions.map((exception) => {
        if (exception.type !== 'CLOSED_WINDOW') return exception;
        const { note, ...rest } = exception;
        void note;
        return rest;
      }),
    },
    requirements: requirements.map((requirement) => ({
      id: requirement.id,
      name: requirement.name,
      units: unitsOf(requirement),
      selection: requirement.selection,
      allowSplit: requirement.allowSplit,
      ...(requirement.selection === 'AUTO' ? {} : { resources: requirement.activeResources }),
    })),
    delivery: {
      mode: delivery.mode,
      origin:
        delivery.originAddress === null
          ? null
          : { city: delivery.originAddress.city, country: delivery.originAddress.country },
      flatFeeInCents: delivery.flatFeeInCents,
      bands: delivery.bands,
    },
  };
}

export async function findServiceRow(
  db: Kysely<Database>,
  organizationId: string,
  serviceId: string,
  options: { forUpdate?: boolean } = {},
): Promise<ServiceRow | undefined> {
  return db
    .selectFrom('booking_services')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', serviceId)
    .$if(options.forUpdate === true, (qb) => qb.forUpdate())
    .executeTakeFirst();
}

/** One service's merchant read from its row. */
export async function readService(
  db: Kysely<Database>,
  organizationId: string,
  row: ServiceRow,
  currency: string,
): Promise<ServiceRead> {
  const requirements = await loadRequirements(db, organizationId, [row.id]);
  return toServiceRead(row, requirements.get(row.id) ?? [], currency);
}

/** A merchant read by id: archived included; another tenant's service is missing (404). */
export async function getService(
  db: Kysely<Database>,
  organizationId: string,
  serviceId: string,
  currency: string,
): Promise<ServiceRead> {
  const row = await findServiceRow(db, organizationId, serviceId);
  if (!row) throw serviceNotFound();
  return readService(db, organizationId, row, currency);
}

/** A public read by slug: `ACTIVE` only; anything else is the neutral 404. */
export async function getPublicService(
  db: Kysely<Database>,
  organizationId: string,
  slug: string,
  currency: string,
): Promise<PublicServiceRead> {
  const row = await db
    .selectFrom('booking_services')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
  if (!row) throw serviceNotFound();
  const requirements = await loadRequirements(db, organizationId, [row.id]);
  return toPublicServiceRead(row, requirements.get(row.id) ?? [], currency);
}
