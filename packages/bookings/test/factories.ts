import { newId } from '@commerce/core';
import type { BookingResourceKind, Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import type { BookingWriteContext } from '../src/context.ts';

let sequence = 0;

/** A fresh organization for one test; `label` keeps ids readable (`org_capacity_3`). */
export async function insertOrganization(db: Kysely<Database>, label = 'bookings'): Promise<string> {
  sequence += 1;
  const id = `org_${label.replace(/-/g, '_')}_${sequence}`;
  await db
    .insertInto('organizations')
    .values({ id, slug: `${label}-${sequence}`, name: 'Shop' })
    .execute();
  return id;
}

export function writeContext(organizationId: string, at: Date): BookingWriteContext {
  return { organizationId, actor: { userId: 'usr_bookings_tester', email: 'tester@shop.test' }, at };
}

/** A resource row written directly (the capacity tests need no service around it). */
export async function insertResource(
  db: Kysely<Database>,
  organizationId: string,
  input: { capacity: number; name?: string; kind?: BookingResourceKind; id?: string },
): Promise<string> {
  sequence += 1;
  const id = input.id ?? newId('brs');
  await db
    .insertInto('booking_resources')
    .values({
      organization_id: organizationId,
      id,
      name: input.name ?? `Resource ${sequence}`,
      kind: input.kind ?? 'EQUIPMENT',
      capacity: input.capacity,
      user_id: null,
      status: 'ACTIVE',
      archived_at: null,
      created_at: new Date(),
      updated_at: new Date(),
    })
    .execute();
  return id;
}

/** `minutes` after `base`. */
export function minutesAfter(base: Date, minutes: number): Date {
  return new Date(base.getTime() + minutes * 60_000);
}

/** A service body that passes the activation check, over the given pool. */
export function activeServiceBody(resourceIds: string[], overrides: Record<string, unknown> = {}) {
  sequence += 1;
  return {
    slug: `tour-${sequence}`,
    name: 'Kayak tour',
    status: 'ACTIVE',
    periodMode: 'FIXED_DURATION',
    timezone: 'Europe/Lisbon',
    durations: { choicesMinutes: [60, 120], startIntervalMinutes: 30 },
    availability: { weeklyHours: { MON: [{ start: '09:00', end: '17:00' }] } },
    requirements: [{ name: 'Kayaks', resourceIds, units: { mode: 'PER_PARTICIPANT' } }],
    pricing: { basis: 'FLAT', amountInCents: 5000 },
    ...overrides,
  };
}

/**
 * Bookings to own claims in tests of the capacity layer, which need no real
 * booking around a claim but must satisfy its foreign key: a minimal DRAFT
 * service per organization and one `CONFIRMED` row per id, both idempotent.
 */
export async function ensureOwnerBookings(
  db: Kysely<Database>,
  organizationId: string,
  bookingIds: readonly string[],
): Promise<void> {
  if (bookingIds.length === 0) return;
  const serviceId = `bks_owner_${organizationId}`;
  await sql`
    insert into booking_services (organization_id, id, slug, name, status, period_mode, timezone, durations,
      availability, party_size_min, party_size_max, checkout, policies, delivery)
    values (${organizationId}, ${serviceId}, 'claim-owner', 'Claim owner', 'DRAFT', 'FIXED_DURATION', 'UTC',
      '{}'::jsonb, '{}'::jsonb, 1, 1, '{}'::jsonb, '{}'::jsonb, '{}'::jsonb)
    on conflict do nothing`.execute(db);
  await db
    .insertInto('bookings')
    .values(
      bookingIds.map((id, index) => ({
        organization_id: organizationId,
        id,
        code: `BK-T${id.slice(-7).toUpperCase()}${index}`.slice(0, 40),
        service_id: serviceId,
        status: 'CONFIRMED' as const,
        starts_at: new Date('2026-07-01T09:00:00Z'),
        ends_at: new Date('2026-07-01T10:00:00Z'),
        quantity: 1,
        timezone: 'UTC',
        customer_name: 'Owner',
        customer_email: 'owner@shop.test',
        snapshot: '{}',
        currency: 'EUR',
        subtotal_in_cents: 0,
        total_in_cents: 0,
        amount_due_now_in_cents: 0,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}
