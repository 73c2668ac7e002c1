import { AppError, newId } from '@commerce/core';
import { type Database, recordAudit } from '@commerce/db';
import type { Kysely, Selectable } from 'kysely';
import { parseInstant } from '../availability/schemas.ts';
import { withCapacityLock } from '../capacity/capacity-lock.ts';
import { insertClaims, releaseClaims } from '../capacity/claims.ts';
import { findConflictingClaims } from '../capacity/live-claims.ts';
import type { BookingWriteContext } from '../context.ts';
import { resourceNotFound } from './resource-read.ts';
import type { BlackoutInput, BlackoutRead } from './schemas.ts';

function toBlackoutRead(row: Selectable<Database['booking_blackouts']>): BlackoutRead {
  return {
    id: row.id,
    resourceId: row.resource_id,
    startsAt: new Date(row.starts_at).toISOString(),
    endsAt: new Date(row.ends_at).toISOString(),
    reason: row.reason,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/**
 * Blocks a resource over `[startsAt, endsAt)`: a claim of its whole capacity,
 * taken under the resource's lock. Live claims of holds, bookings or other
 * blackouts in the way are `409 CAPACITY_UNAVAILABLE` naming them in
 * `details.conflicts[]`. Audited as `booking_resource.blackout_added`.
 */
export async function addBlackout(
  db: Kysely<Database>,
  ctx: BookingWriteContext,
  input: BlackoutInput,
): Promise<BlackoutRead> {
  const startsAt = new Date(parseInstant(input.startsAt)!);
  const endsAt = new Date(parseInstant(input.endsAt)!);
  return withCapacityLock(db, ctx, [input.id], async (trx, [resource]) => {
    if (!resource) throw resourceNotFound();
    const conflicts = await findConflictingClaims(trx, ctx, {
      resourceId: resource.id,
      capacity: resource.capacity,
      extraUnits: resource.capacity,
      from: startsAt,
      until: endsAt,
    });
    if (conflicts.length > 0) {
      throw new AppError('CAPACITY_UNAVAILABLE', 'Live claims are in the way of the blackout', { conflicts });
    }
    const id = newId('bbo', ctx.at);
    const row = await trx
      .insertInto('booking_blackouts')
      .values({
        organization_id: ctx.organizationId,
        id,
        resource_id: resource.id,
        starts_at: startsAt,
        ends_at: endsAt,
        reason: input.reason || null,
        created_at: ctx.at,
        removed_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await insertClaims(trx, ctx, [
      {
        resourceId: resource.id,
        quantity: resource.capacity,
        startsAt,
        endsAt,
        expiresAt: null,
        owner: { kind: 'BLACKOUT', id },
      },
    ]);
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'booking_resource.blackout_added',
      targetType: 'booking_resource',
      targetId: resource.id,
      metadata: { blackoutId: id, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() },
      at: ctx.at,
    });
    return toBlackoutRead(row);
  });
}

/**
 * Removes a blackout and releases its claim. Idempotent: a blackout already
 * removed answers the same and records nothing; one that never existed on
 * this resource is the neutral 404. Audited as `booking_resource.blackout_removed`.
 */
export async function removeBlackout(
  db: Kysely<Database>,
  ctx: BookingWriteContext,
  resourceId: string,
  blackoutId: string,
): Promise<void> {
  await withCapacityLock(db, ctx, [resourceId], async (trx, [resource]) => {
    if (!resource) throw resourceNotFound();
    const blackout = await trx
      .selectFrom('booking_blackouts')
      .select(['id', 'starts_at', 'ends_at', 'removed_at'])
      .where('organization_id', '=', ctx.organizationId)
      .where('resource_id', '=', resourceId)
      .where('id', '=', blackoutId)
      .executeTakeFirst();
    if (!blackout) throw AppError.notFound('Blackout not found');
    if (blackout.removed_at !== null) return;
    await trx
      .updateTable('booking_blackouts')
      .set({ removed_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', blackoutId)
      .execute();
    await releaseClaims(trx, ctx, { kind: 'BLACKOUT', id: blackoutId });
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'booking_resource.blackout_removed',
      targetType: 'booking_resource',
      targetId: resourceId,
      metadata: {
        blackoutId,
        startsAt: new Date(blackout.starts_at).toISOString(),
        endsAt: new Date(blackout.ends_at).toISOString(),
      },
      at: ctx.at,
    });
  });
}
