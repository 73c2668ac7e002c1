import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activeOwnerCount,
  auditRowsFor,
  createTestOrganization,
  outcomes,
  readMembershipById,
  rejectionOf,
} from '../../test/memberships.ts';
import { removeMembership } from './remove-membership.ts';
import { updateMembership } from './update-membership.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-11-24T11:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 12 });
});
afterAll(async () => {
  await handle.close();
});

describe('removeMembership', () => {
  it('deletes the membership and keeps its history in the audit log', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const admin = await org.member('Admin');
    const staff = await org.member('Staff', ['catalog:write']);

    await removeMembership(handle.db, admin.ctx(), staff.membership.id);

    expect(await readMembershipById(handle.db, staff.membership.id)).toBeUndefined();
    const audit = await auditRowsFor(handle.db, staff.membership.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      organization_id: org.id,
      actor_user_id: admin.userId,
      action: 'membership.removed',
      target_type: 'membership',
      target_id: staff.membership.id,
      metadata: { email: staff.email, role: 'Staff', status: 'ACTIVE', userId: staff.userId },
    });
    expect(await readMembershipById(handle.db, admin.membership.id)).toBeDefined();
  });

  it('answers 404 for an unknown id, a removed one and a membership of another organization', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const other = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');
    const staff = await org.member('Staff');
    const foreign = await other.member('Staff');
    await removeMembership(handle.db, owner.ctx(), staff.membership.id);

    expect(
      await outcomes([
        removeMembership(handle.db, owner.ctx(), 'mem_unknown'),
        removeMembership(handle.db, owner.ctx(), staff.membership.id),
        removeMembership(handle.db, owner.ctx(), foreign.membership.id),
      ]),
    ).toEqual(['RESOURCE_NOT_FOUND', 'RESOURCE_NOT_FOUND', 'RESOURCE_NOT_FOUND']);
    expect(await readMembershipById(handle.db, foreign.membership.id)).toBeDefined();
  });

  it('lets only an Owner remove an Owner; an Admin removes Admins, Staff and itself', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');
    const secondOwner = await org.member('Owner');
    const admin = await org.member('Admin');
    const otherAdmin = await org.member('Admin');
    const staff = await org.member('Staff', ['settings:manage']);
    const pendingStaff = await org.pending('Staff');

    expect(
      await outcomes([
        removeMembership(handle.db, admin.ctx(), secondOwner.membership.id),
        removeMembership(handle.db, staff.ctx(), pendingStaff.id),
      ]),
    ).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    expect(await readMembershipById(handle.db, pendingStaff.id)).toBeDefined();

    await removeMembership(handle.db, admin.ctx(), otherAdmin.membership.id);
    await removeMembership(handle.db, admin.ctx(), pendingStaff.id);
    await removeMembership(handle.db, admin.ctx(), admin.membership.id);
    await removeMembership(handle.db, owner.ctx(), secondOwner.membership.id);
    expect(await activeOwnerCount(handle.db, org.id)).toBe(1);
  });

  it('refuses to remove the last active Owner; a pending Owner grant may go', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');
    const pendingOwner = await org.pending('Owner');

    expect(await rejectionOf(removeMembership(handle.db, owner.ctx(), owner.membership.id))).toMatchObject({
      code: 'LAST_OWNER',
    });
    expect(await readMembershipById(handle.db, owner.membership.id)).toBeDefined();
    expect(await auditRowsFor(handle.db, owner.membership.id)).toEqual([]);

    await removeMembership(handle.db, owner.ctx(), pendingOwner.id);
    expect(await readMembershipById(handle.db, pendingOwner.id)).toBeUndefined();
  });

  it('keeps an Owner when two Owners remove each other at the same time', async () => {
    for (let round = 0; round < 5; round += 1) {
      const org = await createTestOrganization(handle.db, clock);
      const a = await org.member('Owner');
      const b = await org.member('Owner');

      const results = await outcomes([
        removeMembership(handle.db, a.ctx(), b.membership.id),
        removeMembership(handle.db, b.ctx(), a.membership.id),
      ]);

      expect(results.sort(), `round ${round}`).toEqual(['LAST_OWNER', 'ok']);
      expect(await activeOwnerCount(handle.db, org.id)).toBe(1);
    }
  });

  it('keeps an Owner when one Owner removes the other while that one demotes itself', async () => {
    for (let round = 0; round < 5; round += 1) {
      const org = await createTestOrganization(handle.db, clock);
      const a = await org.member('Owner');
      const b = await org.member('Owner');

      const results = await outcomes([
        removeMembership(handle.db, a.ctx(), b.membership.id),
        updateMembership(handle.db, b.ctx(), b.membership.id, { role: 'Admin' }),
        updateMembership(handle.db, a.ctx(), a.membership.id, { role: 'Admin' }),
      ]);

      expect(await activeOwnerCount(handle.db, org.id), `round ${round}: ${results}`).toBe(1);
      expect(
        results.filter((result) => result === 'ok').length,
        `round ${round}: ${results}`,
      ).toBeGreaterThan(0);
      expect(
        results.every((result) => ['ok', 'LAST_OWNER', 'RESOURCE_NOT_FOUND', 'FORBIDDEN'].includes(result)),
        `round ${round}: ${results}`,
      ).toBe(true);
    }
  });
});
