import { findActiveMembership } from '@commerce/auth';
import { AppError, canonicalJson, newId } from '@commerce/core';
import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely, UpdateObject } from 'kysely';
import { withCapacityLock } from '../capacity/capacity-lock.ts';
import { findConflictingClaims } from '../capacity/live-claims.ts';
import type { BookingWriteContext } from '../context.ts';
import { RESOURCE_COLUMNS, type ResourceRow, resourceNotFound, toResourceRead } from './resource-read.ts';
import type { CreateResourceInput, ResourceRead, UpdateResourceChanges } from './schemas.ts';

/** A resource's `userId` names an active member, and only a STAFF resource has one. */
async function checkAssignee(
  db: Kysely<Database>,
  organizationId: string,
  kind: ResourceRow['kind'],
  userId: string | null,
): Promise<void> {
  if (userId === null) return;
  if (kind !== 'STAFF') {
    throw AppError.validation([{ path: 'userId', message: 'is for STAFF resources only' }]);
  }
  if (!(await findActiveMembership(db, organizationId, userId))) {
    throw AppError.validation([{ path: 'userId', message: 'is not an active member of the organization' }]);
  }
}

/** Creates an `ACTIVE` resource; audited as `booking_resource.created`. */
export async function createResource(
  db: Kysely<Database>,
  ctx: BookingWriteContext,
  input: CreateResourceInput,
): Promise<ResourceRead> {
  const userId = input.userId ?? null;
  await checkAssignee(db, ctx.organizationId, input.kind, userId);
  const id = newId('brs', ctx.at);
  return inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto('booking_resources')
      .values({
        organization_id: ctx.organizationId,
        id,
        name: input.name,
        kind: input.kind,
        capacity: input.capacity,
        user_id: userId,
        status: 'ACTIVE',
        metafields: JSON.stringify(input.metafields ?? {}),
        archived_at: null,
        created_at: ctx.at,
        updated_at: ctx.at,
      })
      .returning(RESOURCE_COLUMNS)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'booking_resource.created',
      targetType: 'booking_resource',
      targetId: id,
      metadata: { kind: row.kind, capacity: row.capacity },
      at: ctx.at,
    });
    return toResourceRead(row);
  });
}

/** The resource row under the capacity lock, or 404. */
async function lockedResourceRow(
  trx: Kysely<Database>,
  organizationId: string,
  resourceId: string,
  locked: readonly { id: string }[],
): Promise<ResourceRow> {
  if (locked.length === 0) throw resourceNotFound();
  const row = await trx
    .selectFrom('booking_resources')
    .select(RESOURCE_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', resourceId)
    .executeTakeFirstOrThrow();
  return row;
}

/**
 * Applies a partial update under the resource's capacity lock: only changed
 * fields are written and audited (`booking_resource.updated`, `{ fields }`).
 * A capacity below the peak of the live claims from now on is
 * `409 CAPACITY_UNAVAILABLE` with `details.conflicts[]`, the claims in the
 * way; because claims take the same lock, none can slip in between the check
 * and the write.
 */
export async function updateResource(
  db: Kysely<Database>,
  ctx: BookingWriteContext,
  resourceId: string,
  changes: UpdateResourceChanges,
): Promise<ResourceRead> {
  return withCapacityLock(db, ctx, [resourceId], async (trx, locked) => {
    const row = await lockedResourceRow(trx, ctx.organizationId, resourceId, locked);
    const set: UpdateObject<Database, 'booking_resources'> = {};
    const fields: string[] = [];
    const changed = <T>(field: string, next: T | undefined, current: T): next is T => {
      if (next === undefined || next === current) return false;
      fields.push(field);
      return true;
    };
    if (changed('name', changes.name, row.name)) set.name = changes.name;
    if (changed('kind', changes.kind, row.kind)) set.kind = changes.kind;
    if (changed('capacity', changes.capacity, row.capacity)) set.capacity = changes.capacity;
    if (changed('userId', changes.userId, row.user_id)) set.user_id = changes.userId;
    if (
      changes.metafields !== undefined &&
      canonicalJson(changes.metafields) !== canonicalJson(row.metafields)
    ) {
      fields.push('metafields');
      set.metafields = JSON.stringify(changes.metafields);
    }
    if (fields.length === 0) return toResourceRead(row);

    if (fields.includes('kind') || fields.includes('userId')) {
      await checkAssignee(
        trx,
        ctx.organizationId,
        changes.kind ?? row.kind,
        changes.userId !== undefined ? changes.userId : row.user_id,
      );
    }
    if (changes.capacity !== undefined && changes.capacity < row.capacity) {
      const conflicts = await findConflictingClaims(trx, ctx, {
        resourceId,
        capacity: changes.capacity,
        extraUnits: 0,
        from: ctx.at,
        until: null,
      });
      if (conflicts.length > 0) {
        throw new AppError('CAPACITY_UNAVAILABLE', 'Live claims from now on need more capacity than that', {
          conflicts,
        });
      }
    }
    const updated = await trx
      .updateTable('booking_resources')
      .set({ ...set, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', resourceId)
      .returning(RESOURCE_COLUMNS)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'booking_resource.updated',
      targetType: 'booking_resource',
      targetId: resourceId,
      metadata: { fields },
      at: ctx.at,
    });
    return toResourceRead(updated);
  });
}

/**
 * Archives (`ARCHIVED`, `archivedAt`) or restores (`ACTIVE`) a resource;
 * idempotent: a resource already there changes nothing and records nothing.
 * Its existing claims stay; an archived resource takes no new ones through
 * pools. Audited as `booking_resource.archived` / `.restored`.
 */
export async function setResourceArchived(
  db: Kysely<Database>,
  ctx: BookingWriteContext,
  resourceId: string,
  archived: boolean,
): Promise<ResourceRead> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('booking_resources')
      .select(RESOURCE_COLUMNS)
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', resourceId)
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!row) throw resourceNotFound();
    if ((row.status === 'ARCHIVED') === archived) return toResourceRead(row);
    const updated = await trx
      .updateTable('booking_resources')
      .set({
        status: archived ? 'ARCHIVED' : 'ACTIVE',
        archived_at: archived ? ctx.at : null,
        updated_at: ctx.at,
      })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', resourceId)
      .returning(RESOURCE_COLUMNS)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: archived ? 'booking_resource.archived' : 'booking_resource.restored',
      targetType: 'booking_resource',
      targetId: resourceId,
      metadata: { from: row.status, to: updated.status },
      at: ctx.at,
    });
    return toResourceRead(updated);
  });
}
