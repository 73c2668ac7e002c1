import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertOrganization,
  merchantClaims,
  readAuditRows,
  readMembership,
  readUsersBySubject,
} from '../../test/factories.ts';
import { addMembership } from './add-membership.ts';
import { resolveMerchantUser } from './resolve-merchant-user.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-03-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});

afterAll(async () => {
  await handle.close();
});

describe('resolveMerchantUser', () => {
  it('creates the user on first sign-in', async () => {
    const claims = merchantClaims({ name: 'Ada Lovelace' });
    const user = await resolveMerchantUser(handle.db, claims, clock.now());

    expect(user.id).toMatch(/^usr_[0-9A-Z]{26}$/);
    expect(user).toMatchObject({ subject: claims.subject, email: claims.email, name: 'Ada Lovelace' });
    expect(user.created_at.toISOString()).toBe('2026-03-01T09:00:00.000Z');
    expect(await readUsersBySubject(handle.db, claims.subject)).toHaveLength(1);
  });

  it('finds the same user on a second sign-in instead of creating another', async () => {
    const claims = merchantClaims();
    const first = await resolveMerchantUser(handle.db, claims, clock.now());
    clock.advance(60_000);
    const second = await resolveMerchantUser(handle.db, claims, clock.now());

    expect(second.id).toBe(first.id);
    expect(await readUsersBySubject(handle.db, claims.subject)).toHaveLength(1);
  });

  it('binds a pending membership granted to the email, activates it and audits membership.activated', async () => {
    const organization = await insertOrganization(handle.db);
    const claims = merchantClaims();
    const pending = await addMembership(handle.db, {
      organizationId: organization.id,
      email: claims.email.toUpperCase(),
      role: 'Staff',
      permissions: ['catalog:write'],
      at: clock.now(),
    });
    expect(pending).toMatchObject({ status: 'PENDING', user_id: null, email: claims.email });

    clock.advance(60_000);
    const user = await resolveMerchantUser(handle.db, claims, clock.now());

    const bound = await readMembership(handle.db, pending.id);
    expect(bound).toMatchObject({
      status: 'ACTIVE',
      user_id: user.id,
      role: 'Staff',
      permissions: ['catalog:write'],
    });
    expect(bound.updated_at.getTime()).toBe(clock.now().getTime());
    const audit = await readAuditRows(handle.db, pending.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      organization_id: organization.id,
      action: 'membership.activated',
      target_type: 'membership',
      target_id: pending.id,
      actor_user_id: user.id,
      actor_email: claims.email,
      metadata: { via: 'sign_in' },
    });
  });

  it('binds pending memberships in several organizations at once, one audit row each', async () => {
    const [first, second] = [await insertOrganization(handle.db), await insertOrganization(handle.db)];
    const claims = merchantClaims();
    const memberships = await Promise.all(
      [first, second].map((organization) =>
        addMembership(handle.db, {
          organizationId: organization.id,
          email: claims.email,
          role: 'Admin',
          permissions: [],
          at: clock.now(),
        }),
      ),
    );

    const user = await resolveMerchantUser(handle.db, claims, clock.now());

    for (const membership of memberships) {
      expect(await readMembership(handle.db, membership.id)).toMatchObject({
        status: 'ACTIVE',
        user_id: user.id,
      });
      expect(await readAuditRows(handle.db, membership.id)).toHaveLength(1);
    }
  });

  it('does not bind when the provider says the email is unverified', async () => {
    const organization = await insertOrganization(handle.db);
    const claims = merchantClaims({ emailVerified: false });
    const pending = await addMembership(handle.db, {
      organizationId: organization.id,
      email: claims.email,
      role: 'Owner',
      permissions: [],
      at: clock.now(),
    });

    const user = await resolveMerchantUser(handle.db, claims, clock.now());

    expect(user.email).toBe(claims.email);
    expect(await readMembership(handle.db, pending.id)).toMatchObject({ status: 'PENDING', user_id: null });
    expect(await readAuditRows(handle.db, pending.id)).toHaveLength(0);
  });

  it('binds the pending membership once the same email is verified at a later sign-in', async () => {
    const organization = await insertOrganization(handle.db);
    const claims = merchantClaims();
    const pending = await addMembership(handle.db, {
      organizationId: organization.id,
      email: claims.email,
      role: 'Staff',
      permissions: [],
      at: clock.now(),
    });
    await resolveMerchantUser(handle.db, { ...claims, emailVerified: false }, clock.now());
    expect(await readMembership(handle.db, pending.id)).toMatchObject({ status: 'PENDING', user_id: null });

    clock.advance(60_000);
    const user = await resolveMerchantUser(handle.db, claims, clock.now());

    expect(await readMembership(handle.db, pending.id)).toMatchObject({ status: 'ACTIVE', user_id: user.id });
    expect(await readAuditRows(handle.db, pending.id)).toHaveLength(1);
  });

  it('follows an email change at the provider and binds the memberships pending for the new email', async () => {
    const [oldShop, newShop] = [await insertOrganization(handle.db), await insertOrganization(handle.db)];
    const claims = merchantClaims();
    const before = await addMembership(handle.db, {
      organizationId: oldShop.id,
      email: claims.email,
      role: 'Owner',
      permissions: [],
      at: clock.now(),
    });
    const user = await resolveMerchantUser(handle.db, claims, clock.now());
    const newEmail = `renamed-${claims.email}`;
    const pending = await addMembership(handle.db, {
      organizationId: newShop.id,
      email: newEmail,
      role: 'Staff',
      permissions: [],
      at: clock.now(),
    });
    expect(pending.status).toBe('PENDING');

    clock.advance(60_000);
    const changed = await resolveMerchantUser(handle.db, { ...claims, email: newEmail }, clock.now());

    expect(changed.id).toBe(user.id);
    expect(changed.email).toBe(newEmail);
    expect(changed.updated_at.getTime()).toBe(clock.now().getTime());
    expect(await readUsersBySubject(handle.db, claims.subject)).toEqual([changed]);
    expect(await readMembership(handle.db, pending.id)).toMatchObject({ status: 'ACTIVE', user_id: user.id });
    expect(await readAuditRows(handle.db, pending.id)).toHaveLength(1);
    // The membership bound under the old email stays the user's.
    expect(await readMembership(handle.db, before.id)).toMatchObject({ status: 'ACTIVE', user_id: user.id });
  });

  it('leaves a pending duplicate pending when the new email meets an organization the user is already in', async () => {
    const organization = await insertOrganization(handle.db);
    const claims = merchantClaims();
    const bound = await addMembership(handle.db, {
      organizationId: organization.id,
      email: claims.email,
      role: 'Owner',
      permissions: [],
      at: clock.now(),
    });
    const user = await resolveMerchantUser(handle.db, claims, clock.now());
    const newEmail = `second-${claims.email}`;
    const duplicate = await addMembership(handle.db, {
      organizationId: organization.id,
      email: newEmail,
      role: 'Staff',
      permissions: [],
      at: clock.now(),
    });

    await resolveMerchantUser(handle.db, { ...claims, email: newEmail }, clock.now());

    expect(await readMembership(handle.db, bound.id)).toMatchObject({ status: 'ACTIVE', user_id: user.id });
    expect(await readMembership(handle.db, duplicate.id)).toMatchObject({ status: 'PENDING', user_id: null });
    expect(await readAuditRows(handle.db, duplicate.id)).toHaveLength(0);
  });

  it('never binds a membership granted to another email', async () => {
    const organization = await insertOrganization(handle.db);
    const other = await addMembership(handle.db, {
      organizationId: organization.id,
      email: merchantClaims().email,
      role: 'Admin',
      permissions: [],
      at: clock.now(),
    });

    await resolveMerchantUser(handle.db, merchantClaims(), clock.now());

    expect(await readMembership(handle.db, other.id)).toMatchObject({ status: 'PENDING', user_id: null });
  });

  it('creates one user and binds the pending membership once under 10 concurrent first sign-ins', async () => {
    const organization = await insertOrganization(handle.db);
    const claims = merchantClaims();
    const pending = await addMembership(handle.db, {
      organizationId: organization.id,
      email: claims.email,
      role: 'Staff',
      permissions: ['orders:operate'],
      at: clock.now(),
    });

    const users = await Promise.all(
      Array.from({ length: 10 }, () => resolveMerchantUser(handle.db, claims, clock.now())),
    );

    const stored = await readUsersBySubject(handle.db, claims.subject);
    expect(stored).toHaveLength(1);
    expect(new Set(users.map((user) => user.id))).toEqual(new Set([stored[0]!.id]));
    expect(await readMembership(handle.db, pending.id)).toMatchObject({
      status: 'ACTIVE',
      user_id: stored[0]!.id,
    });
    const audit = await readAuditRows(handle.db, pending.id);
    expect(audit.map((row) => row.action)).toEqual(['membership.activated']);
  });

  it('binds the membership pending for a changed email once under 5 concurrent sign-ins', async () => {
    const organization = await insertOrganization(handle.db);
    const claims = merchantClaims();
    const user = await resolveMerchantUser(handle.db, claims, clock.now());
    const newEmail = `moved-${claims.email}`;
    const pending = await addMembership(handle.db, {
      organizationId: organization.id,
      email: newEmail,
      role: 'Staff',
      permissions: [],
      at: clock.now(),
    });

    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        resolveMerchantUser(handle.db, { ...claims, email: newEmail }, clock.now()),
      ),
    );

    expect(results.map((result) => result.id)).toEqual(Array.from({ length: 5 }, () => user.id));
    expect(await readUsersBySubject(handle.db, claims.subject)).toHaveLength(1);
    expect(await readMembership(handle.db, pending.id)).toMatchObject({ status: 'ACTIVE', user_id: user.id });
    expect(await readAuditRows(handle.db, pending.id)).toHaveLength(1);
  });
});

describe('email verification and memberships granted later', () => {
  it('does not bind a new membership at once to a user whose email the provider never verified', async () => {
    const organization = await insertOrganization(handle.db);
    // Someone signs in claiming an address the provider has not verified...
    const claims = merchantClaims({ emailVerified: false });
    const unverified = await resolveMerchantUser(handle.db, claims, clock.now());

    // ...and an owner later grants a membership to that address.
    const membership = await addMembership(handle.db, {
      organizationId: organization.id,
      email: claims.email,
      role: 'Admin',
      permissions: [],
      at: clock.now(),
    });

    expect(membership.user_id).not.toBe(unverified.id);
    expect(membership.status).toBe('PENDING');
  });
});
