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
import { updateMembershipInputSchema } from './schemas.ts';
import { updateMembership } from './update-membership.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-11-24T10:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 12 });
});
afterAll(async () => {
  await handle.close();
});

describe('updateMembership', () => {
  it("replaces a Staff member's groups and audits the changed field", async () => {
    const org = await createTestOrganization(handle.db, clock);
    const admin = await org.member('Admin');
    const staff = await org.member('Staff', ['catalog:write']);
    clock.advance(60_000);

    const updated = await updateMembership(handle.db, admin.ctx(), staff.membership.id, {
      permissions: ['orders:operate', 'customers:read', 'orders:operate'],
    });

    expect(updated).toMatchObject({
      id: staff.membership.id,
      userId: staff.userId,
      name: `Name of ${staff.email}`,
      role: 'Staff',
      permissions: ['orders:operate', 'customers:read'],
      status: 'ACTIVE',
    });
    const row = await readMembershipById(handle.db, staff.membership.id);
    expect(row?.permissions).toEqual(['orders:operate', 'customers:read']);
    expect(row?.updated_at.toISOString()).toBe(clock.now().toISOString());
    const audit = await auditRowsFor(handle.db, staff.membership.id);
    expect(audit.map((entry) => [entry.action, entry.actor_user_id, entry.metadata])).toEqual([
      [
        'membership.updated',
        admin.userId,
        { fields: ['permissions'], permissions: ['orders:operate', 'customers:read'] },
      ],
    ]);
  });

  it('clears the groups when the role leaves Staff, and starts a new Staff member with none', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');
    const staff = await org.member('Staff', ['catalog:write', 'settings:manage']);
    const admin = await org.member('Admin');

    const promoted = await updateMembership(handle.db, owner.ctx(), staff.membership.id, { role: 'Admin' });
    expect(promoted).toMatchObject({ role: 'Admin', permissions: [] });
    expect((await auditRowsFor(handle.db, staff.membership.id))[0]?.metadata).toEqual({
      fields: ['role', 'permissions'],
      role: 'Admin',
      previousRole: 'Staff',
      permissions: [],
    });

    const demoted = await updateMembership(handle.db, owner.ctx(), admin.membership.id, { role: 'Staff' });
    expect(demoted).toMatchObject({ role: 'Staff', permissions: [] });
    expect((await auditRowsFor(handle.db, admin.membership.id))[0]?.metadata).toEqual({
      fields: ['role'],
      role: 'Staff',
      previousRole: 'Admin',
    });

    const withGroups = await updateMembership(handle.db, owner.ctx(), staff.membership.id, {
      role: 'Staff',
      permissions: ['bookings:manage'],
    });
    expect(withGroups).toMatchObject({ role: 'Staff', permissions: ['bookings:manage'] });
  });

  it('writes nothing for a change that changes nothing', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');
    const staff = await org.member('Staff', ['orders:operate', 'catalog:write']);
    clock.advance(1000);

    const same = await updateMembership(handle.db, owner.ctx(), staff.membership.id, {
      role: 'Staff',
      permissions: ['catalog:write', 'orders:operate'],
    });

    expect(same.permissions).toEqual(['orders:operate', 'catalog:write']);
    expect(await auditRowsFor(handle.db, staff.membership.id)).toEqual([]);
    expect((await readMembershipById(handle.db, staff.membership.id))?.updated_at).toEqual(
      staff.membership.updated_at,
    );
  });

  it('answers 404 for an unknown id and for a membership of another organization', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const other = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');
    const foreign = await other.member('Staff');

    expect(
      await rejectionOf(updateMembership(handle.db, owner.ctx(), 'mem_unknown', { role: 'Admin' })),
    ).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    expect(
      await rejectionOf(updateMembership(handle.db, owner.ctx(), foreign.membership.id, { role: 'Admin' })),
    ).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    expect((await readMembershipById(handle.db, foreign.membership.id))?.role).toBe('Staff');
  });

  it('lets only an Owner touch an Owner membership or make an Owner', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');
    const secondOwner = await org.member('Owner');
    const admin = await org.member('Admin');
    const otherAdmin = await org.member('Admin');
    const staff = await org.member('Staff', ['settings:manage']);

    const refusals = await outcomes([
      updateMembership(handle.db, admin.ctx(), otherAdmin.membership.id, { role: 'Owner' }),
      updateMembership(handle.db, admin.ctx(), secondOwner.membership.id, { role: 'Admin' }),
      updateMembership(handle.db, admin.ctx(), secondOwner.membership.id, { role: 'Owner' }),
      updateMembership(handle.db, admin.ctx(), admin.membership.id, { role: 'Owner' }),
      updateMembership(handle.db, staff.ctx(), otherAdmin.membership.id, { role: 'Staff' }),
    ]);
    expect(refusals).toEqual(['FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN']);

    expect(
      (await updateMembership(handle.db, admin.ctx(), otherAdmin.membership.id, { role: 'Staff' })).role,
    ).toBe('Staff');
    expect(
      (await updateMembership(handle.db, owner.ctx(), admin.membership.id, { role: 'Owner' })).role,
    ).toBe('Owner');
    expect(
      (await updateMembership(handle.db, owner.ctx(), secondOwner.membership.id, { role: 'Admin' })).role,
    ).toBe('Admin');
  });

  it('refuses groups for a membership that is not Staff', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');
    const admin = await org.member('Admin');

    expect(
      await rejectionOf(
        updateMembership(handle.db, owner.ctx(), admin.membership.id, { permissions: ['catalog:write'] }),
      ),
    ).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ path: 'permissions' }] } });
    expect(
      await rejectionOf(
        updateMembership(handle.db, owner.ctx(), admin.membership.id, {
          role: 'Admin',
          permissions: ['catalog:write'],
        }),
      ),
    ).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(
      await rejectionOf(updateMembership(handle.db, owner.ctx(), admin.membership.id, {})),
    ).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(updateMembershipInputSchema.safeParse({ id: admin.membership.id }).success).toBe(false);
    expect(
      updateMembershipInputSchema.safeParse({ id: admin.membership.id, role: 'Staff', extra: true }).success,
    ).toBe(false);
  });

  it('refuses to demote the last active Owner, even with a pending Owner grant', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');
    const pendingOwner = await org.pending('Owner');

    expect(
      await rejectionOf(updateMembership(handle.db, owner.ctx(), owner.membership.id, { role: 'Admin' })),
    ).toMatchObject({ code: 'LAST_OWNER' });
    expect((await readMembershipById(handle.db, owner.membership.id))?.role).toBe('Owner');

    // A pending Owner may be demoted: the active one remains.
    expect((await updateMembership(handle.db, owner.ctx(), pendingOwner.id, { role: 'Staff' })).role).toBe(
      'Staff',
    );

    const second = await org.member('Owner');
    expect(
      (await updateMembership(handle.db, owner.ctx(), owner.membership.id, { role: 'Admin' })).role,
    ).toBe('Admin');
    expect(await activeOwnerCount(handle.db, org.id)).toBe(1);
    expect(
      await rejectionOf(updateMembership(handle.db, second.ctx(), second.membership.id, { role: 'Staff' })),
    ).toMatchObject({ code: 'LAST_OWNER' });
  });

  it('keeps an Owner when two Owners demote each other at the same time', async () => {
    for (let round = 0; round < 5; round += 1) {
      const org = await createTestOrganization(handle.db, clock);
      const a = await org.member('Owner');
      const b = await org.member('Owner');
      await org.member('Admin');

      const results = await outcomes([
        updateMembership(handle.db, a.ctx(), b.membership.id, { role: 'Admin' }),
        updateMembership(handle.db, b.ctx(), a.membership.id, { role: 'Admin' }),
      ]);

      expect(results.sort(), `round ${round}`).toEqual(['LAST_OWNER', 'ok']);
      expect(await activeOwnerCount(handle.db, org.id)).toBe(1);
    }
  });

  it('keeps an Owner when every Owner demotes themselves at the same time', async () => {
    for (let round = 0; round < 5; round += 1) {
      const org = await createTestOrganization(handle.db, clock);
      const owners = [await org.member('Owner'), await org.member('Owner'), await org.member('Owner')];

      const results = await outcomes(
        owners.map((owner) =>
          updateMembership(handle.db, owner.ctx(), owner.membership.id, { role: 'Staff' }),
        ),
      );

      expect(results.sort(), `round ${round}`).toEqual(['LAST_OWNER', 'ok', 'ok']);
      expect(await activeOwnerCount(handle.db, org.id)).toBe(1);
    }
  });
});
