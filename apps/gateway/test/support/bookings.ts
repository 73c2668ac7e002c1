import { expectJson } from './harness.ts';
import type { RoleFixture } from './roles.ts';

export interface RoomServiceOptions {
  slug: string;
  /** The service's name, and its resource's (default "Room"). */
  name?: string;
  /** Units of the one SPACE resource (default 3). */
  capacity?: number;
  /** The flat price of a booking (default 3000). */
  amountInCents?: number;
  /** Further fields of the service (checkout, agreement, …), laid over the defaults. */
  extra?: Record<string, unknown>;
}

/**
 * The booking tests' usual service: one SPACE resource, 60-minute bookings between 09:00 and
 * 17:00 Lisbon time, Monday to Friday, each taking one unit, at a flat price.
 */
export async function createRoomService(
  shop: RoleFixture,
  { slug, name = 'Room', capacity = 3, amountInCents = 3000, extra = {} }: RoomServiceOptions,
): Promise<{ resourceId: string; serviceId: string }> {
  const resource = await expectJson<{ id: string }>(
    await shop.call('owner', 'POST', '/merchant/booking-resources', { name, kind: 'SPACE', capacity }),
    201,
  );
  const daily = [{ start: '09:00', end: '17:00' }];
  const service = await expectJson<{ id: string }>(
    await shop.call('owner', 'POST', '/merchant/booking-services', {
      slug,
      name,
      status: 'ACTIVE',
      periodMode: 'FIXED_DURATION',
      timezone: 'Europe/Lisbon',
      durations: { choicesMinutes: [60] },
      availability: { weeklyHours: { MON: daily, TUE: daily, WED: daily, THU: daily, FRI: daily } },
      requirements: [{ name, resourceIds: [resource.id], units: { mode: 'PER_BOOKING', count: 1 } }],
      pricing: { basis: 'FLAT', amountInCents },
      ...extra,
    }),
    201,
  );
  return { resourceId: resource.id, serviceId: service.id };
}
