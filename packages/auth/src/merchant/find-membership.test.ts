import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization, merchantClaims } from '../../test/factories.ts';
import { addMembership } from './add-membership.ts';
import { findActiveMembership } from './find-membership.ts';
import { resolveMerchantUser } from './resolve-merchant-user.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-03-05T12:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});

afterAll(async () => {
  await handle.close();
});

describe('findActiveMembership', () => {
  it("finds the user's active membership in the organization, and nothing in another one", async () => {
    const [mine, other] = [await insertOrganization(handle.db), await insertOrganization(handle.db)];
    const claims = merchantClaims();
    const membership = await addMembership(handle.db, {
      organizationId: mine.id,
      email: claims.email,
      role: 'Staff',
      permissions: ['customers:read'],
      at: clock.now(),
    });
    const user = await resolveMerchantUser(handle.db, claims, clock.now());

    const found = await findActiveMembership(handle.db, mine.id, user.id);

    expect(found).toMatchObject({
      id: membership.id,
      organization_id: mine.id,
      role: 'Staff',
      status: 'ACTIVE',
    });
    expect(await findActiveMembership(handle.db, other.id, user.id)).toBeUndefined();
  });

  it("does not find another user's membership", async () => {
    const organization = await insertOrganization(handle.db);
    const ownerClaims = merchantClaims();
    await addMembership(handle.db, {
      organizationId: organization.id,
      email: ownerClaims.email,
      role: 'Owner',
      permissions: [],
      at: clock.now(),
    });
    await resolveMerchantUser(handle.db, ownerClaims, clock.now());
    const stranger = await resolveMerchantUser(handle.db, merchantClaims(), clock.now());

    expect(await findActiveMembership(handle.db, organization.id, stranger.id)).toBeUndefined();
  });

  it('does not find a membership that is still pending', async () => {
    const organization = await insertOrganization(handle.db);
    const claims = merchantClaims({ emailVerified: false });
    await addMembership(handle.db, {
      organizationId: organization.id,
      email: claims.email,
      role: 'Admin',
      permissions: [],
      at: clock.now(),
    });
    const user = await resolveMerchantUser(handle.db, claims, clock.now());

    expect(await findActiveMembership(handle.db, organization.id, user.id)).toBeUndefined();
  });
});
