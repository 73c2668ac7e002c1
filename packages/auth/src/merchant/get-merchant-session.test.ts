import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization, merchantClaims } from '../../test/factories.ts';
import { addMembership } from './add-membership.ts';
import { getMerchantSession } from './get-merchant-session.ts';
import { resolveMerchantUser } from './resolve-merchant-user.ts';
import { merchantSessionSchema } from './schemas.ts';
import { updateMerchantProfile } from './update-merchant-profile.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-03-03T08:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});

afterAll(async () => {
  await handle.close();
});

describe('getMerchantSession', () => {
  it('returns the user and every membership across organizations, with the organization summary', async () => {
    const first = await insertOrganization(handle.db, { name: 'First Shop' });
    const second = await insertOrganization(handle.db, { name: 'Second Shop' });
    const unrelated = await insertOrganization(handle.db);
    const claims = merchantClaims();
    const owner = await addMembership(handle.db, {
      organizationId: first.id,
      email: claims.email,
      invitedName: 'Invited Name',
      role: 'Owner',
      permissions: [],
      at: clock.now(),
    });
    clock.advance(1000);
    const staff = await addMembership(handle.db, {
      organizationId: second.id,
      email: claims.email,
      role: 'Staff',
      permissions: ['catalog:write'],
      at: clock.now(),
    });
    // Someone else's membership in a third organization must not appear.
    await addMembership(handle.db, {
      organizationId: unrelated.id,
      email: merchantClaims().email,
      role: 'Owner',
      permissions: [],
      at: clock.now(),
    });
    const user = await resolveMerchantUser(handle.db, claims, clock.now());

    const session = await getMerchantSession(handle.db, user);

    expect(merchantSessionSchema.parse(session)).toEqual(session);
    expect(session.user).toEqual({ id: user.id, email: claims.email, name: null });
    expect(session.memberships).toEqual([
      {
        id: owner.id,
        userId: user.id,
        email: claims.email,
        name: 'Invited Name',
        role: 'Owner',
        permissions: [],
        status: 'ACTIVE',
        createdAt: '2026-03-03T08:00:00.000Z',
        organization: { id: first.id, slug: first.slug, name: 'First Shop' },
      },
      {
        id: staff.id,
        userId: user.id,
        email: claims.email,
        name: null,
        role: 'Staff',
        permissions: ['catalog:write'],
        status: 'ACTIVE',
        createdAt: '2026-03-03T08:00:01.000Z',
        organization: { id: second.id, slug: second.slug, name: 'Second Shop' },
      },
    ]);
  });

  it("shows the user's own name over the invited name once there is one", async () => {
    const organization = await insertOrganization(handle.db);
    const claims = merchantClaims({ name: 'Own Name' });
    await addMembership(handle.db, {
      organizationId: organization.id,
      email: claims.email,
      invitedName: 'Invited Name',
      role: 'Admin',
      permissions: [],
      at: clock.now(),
    });
    const user = await resolveMerchantUser(handle.db, claims, clock.now());

    const session = await getMerchantSession(handle.db, user);

    expect(session.user.name).toBe('Own Name');
    expect(session.memberships.map((membership) => membership.name)).toEqual(['Own Name']);
  });

  it('has no memberships for a user whose only grants are still pending elsewhere', async () => {
    const organization = await insertOrganization(handle.db);
    const claims = merchantClaims({ emailVerified: false });
    await addMembership(handle.db, {
      organizationId: organization.id,
      email: claims.email,
      role: 'Staff',
      permissions: [],
      at: clock.now(),
    });
    const user = await resolveMerchantUser(handle.db, claims, clock.now());

    expect((await getMerchantSession(handle.db, user)).memberships).toEqual([]);
  });

  it('reflects a profile name set with updateMerchantProfile', async () => {
    const organization = await insertOrganization(handle.db);
    const claims = merchantClaims();
    await addMembership(handle.db, {
      organizationId: organization.id,
      email: claims.email,
      invitedName: 'Invited Name',
      role: 'Owner',
      permissions: [],
      at: clock.now(),
    });
    const user = await resolveMerchantUser(handle.db, claims, clock.now());
    await updateMerchantProfile(handle.db, user, { name: 'Chosen Name' }, clock.now());
    const signedInAgain = await resolveMerchantUser(handle.db, claims, clock.now());

    const session = await getMerchantSession(handle.db, signedInAgain);

    expect(session.user.name).toBe('Chosen Name');
    expect(session.memberships.map((membership) => membership.name)).toEqual(['Chosen Name']);
  });
});
