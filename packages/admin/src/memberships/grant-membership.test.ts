import { membershipSchema, resolveMerchantUser } from '@commerce/auth';
import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRowsFor,
  createTestOrganization,
  outcomes,
  readMembershipById,
  rejectionOf,
} from '../../test/memberships.ts';
import { grantMembership } from './grant-membership.ts';
import { grantMembershipInputSchema } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-11-24T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 12 });
});
afterAll(async () => {
  await handle.close();
});

describe('grantMembership', () => {
  it('grants a pending Staff membership with its groups once each, in canonical order, and audits it', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');

    const granted = await grantMembership(handle.db, owner.ctx(), {
      email: 'New.Hire@Example.com',
      role: 'Staff',
      permissions: ['orders:operate', 'catalog:write', 'orders:operate'],
    });

    expect(membershipSchema.parse(granted)).toEqual(granted);
    expect(granted).toEqual({
      id: expect.stringMatching(/^mem_/),
      userId: null,
      email: 'new.hire@example.com',
      name: null,
      role: 'Staff',
      permissions: ['catalog:write', 'orders:operate'],
      status: 'PENDING',
      createdAt: '2026-11-24T09:00:00.000Z',
    });
    expect((await readMembershipById(handle.db, granted.id))?.organization_id).toBe(org.id);
    const audit = await auditRowsFor(handle.db, granted.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      organization_id: org.id,
      actor_user_id: owner.userId,
      actor_email: owner.email,
      action: 'membership.granted',
      target_type: 'membership',
      target_id: granted.id,
      metadata: {
        email: 'new.hire@example.com',
        role: 'Staff',
        permissions: ['catalog:write', 'orders:operate'],
      },
    });
  });

  it('is active at once, with the user and their name, for an email a user already signed in with', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const admin = await org.member('Admin');
    const user = await resolveMerchantUser(
      handle.db,
      { subject: 'idp|known-user', email: 'known@example.com', name: 'Known Person', emailVerified: true },
      clock.now(),
    );

    const granted = await grantMembership(handle.db, admin.ctx(), {
      email: 'KNOWN@example.com',
      role: 'Admin',
    });

    expect(granted).toMatchObject({
      userId: user.id,
      email: 'known@example.com',
      name: 'Known Person',
      role: 'Admin',
      permissions: [],
      status: 'ACTIVE',
    });
  });

  it('lets only an Owner grant Owner, and refuses Staff', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');
    const admin = await org.member('Admin');
    const staff = await org.member('Staff', ['settings:manage', 'catalog:write']);

    expect(
      await rejectionOf(grantMembership(handle.db, admin.ctx(), { email: 'o1@example.com', role: 'Owner' })),
    ).toMatchObject({ code: 'FORBIDDEN' });
    expect(
      await rejectionOf(grantMembership(handle.db, staff.ctx(), { email: 's1@example.com', role: 'Staff' })),
    ).toMatchObject({ code: 'FORBIDDEN' });
    const byAdmin = await grantMembership(handle.db, admin.ctx(), { email: 'a1@example.com', role: 'Admin' });
    const byOwner = await grantMembership(handle.db, owner.ctx(), { email: 'o2@example.com', role: 'Owner' });
    expect([byAdmin.role, byOwner.role]).toEqual(['Admin', 'Owner']);

    const rows = await handle.db
      .selectFrom('memberships')
      .select('email')
      .where('organization_id', '=', org.id)
      .where('email', 'in', ['o1@example.com', 's1@example.com'])
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses permission groups for Owner and Admin, but accepts an empty list', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');

    const refused = await rejectionOf(
      grantMembership(handle.db, owner.ctx(), {
        email: 'admin-with-groups@example.com',
        role: 'Admin',
        permissions: ['catalog:write'],
      }),
    );
    expect(refused).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { issues: [{ path: 'permissions' }] },
    });
    const accepted = await grantMembership(handle.db, owner.ctx(), {
      email: 'admin-no-groups@example.com',
      role: 'Admin',
      permissions: [],
    });
    expect(accepted.permissions).toEqual([]);

    // The edge schema says the same before the service runs.
    const parsed = grantMembershipInputSchema.safeParse({
      email: 'x@example.com',
      role: 'Owner',
      permissions: ['settings:manage'],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['permissions']);
  });

  it('answers MEMBERSHIP_EXISTS for an email already granted in the organization, whatever its case', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');
    const first = await grantMembership(handle.db, owner.ctx(), { email: 'dup@example.com', role: 'Staff' });

    for (const email of ['dup@example.com', 'DUP@Example.COM', owner.email]) {
      const duplicate = await rejectionOf(grantMembership(handle.db, owner.ctx(), { email, role: 'Admin' }));
      expect(duplicate, email).toMatchObject({ code: 'MEMBERSHIP_EXISTS' });
    }
    expect(await auditRowsFor(handle.db, first.id)).toHaveLength(1);
    const granted = await handle.db
      .selectFrom('audit_logs')
      .select('id')
      .where('organization_id', '=', org.id)
      .where('action', '=', 'membership.granted')
      .execute();
    expect(granted).toHaveLength(1);
  });

  it('answers MEMBERSHIP_EXISTS when the email belongs to a user who is already a member under an older email', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');
    const staff = await org.member('Staff');
    // The provider changed the staff member's email; their membership keeps the old one.
    await resolveMerchantUser(
      handle.db,
      { subject: `idp|${staff.email}`, email: 'renamed@example.com', name: null, emailVerified: true },
      clock.now(),
    );

    const duplicate = await rejectionOf(
      grantMembership(handle.db, owner.ctx(), { email: 'renamed@example.com', role: 'Staff' }),
    );
    expect(duplicate).toMatchObject({ code: 'MEMBERSHIP_EXISTS' });
  });

  it('allows the same email in another organization', async () => {
    const [first, second] = [
      await createTestOrganization(handle.db, clock),
      await createTestOrganization(handle.db, clock),
    ];
    const a = await grantMembership(handle.db, (await first.member('Owner')).ctx(), {
      email: 'shared@example.com',
      role: 'Staff',
    });
    const b = await grantMembership(handle.db, (await second.member('Owner')).ctx(), {
      email: 'shared@example.com',
      role: 'Staff',
    });
    expect(a.id).not.toBe(b.id);
  });

  it('gives exactly one membership to concurrent grants of one email', async () => {
    const org = await createTestOrganization(handle.db, clock);
    const owner = await org.member('Owner');
    const admin = await org.member('Admin');

    const results = await outcomes(
      Array.from({ length: 8 }, (_, index) =>
        grantMembership(handle.db, (index % 2 === 0 ? owner : admin).ctx(), {
          email: index % 3 === 0 ? 'Race@Example.com' : 'race@example.com',
          role: 'Staff',
        }),
      ),
    );

    expect(results.filter((result) => result === 'ok')).toHaveLength(1);
    expect(results.filter((result) => result === 'MEMBERSHIP_EXISTS')).toHaveLength(7);
    const rows = await handle.db
      .selectFrom('memberships')
      .select('id')
      .where('organization_id', '=', org.id)
      .where('email', '=', 'race@example.com')
      .execute();
    expect(rows).toHaveLength(1);
    expect(await auditRowsFor(handle.db, rows[0]!.id)).toHaveLength(1);
  });

  it('refuses an Owner grant by an actor demoted since the request began', async () => {
    const org = await createTestOrganization(handle.db, clock);
    await org.member('Owner');
    const demoted = await org.member('Owner');
    await handle.db
      .updateTable('memberships')
      .set({ role: 'Admin' })
      .where('id', '=', demoted.membership.id)
      .execute();

    // The request's context still says Owner; the row under lock says Admin.
    const refused = await rejectionOf(
      grantMembership(handle.db, demoted.ctx(), { email: 'late@example.com', role: 'Owner' }),
    );
    expect(refused).toMatchObject({ code: 'FORBIDDEN' });
  });
});
