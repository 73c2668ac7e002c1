import { ManualClock } from '@commerce/core';
import { type DatabaseHandle, isUniqueViolation } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization, merchantClaims, readAuditRows, readMembership } from '../../test/factories.ts';
import { addMembership } from './add-membership.ts';
import { resolveMerchantUser } from './resolve-merchant-user.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-03-02T10:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});

afterAll(async () => {
  await handle.close();
});

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the insert to be rejected');
    },
    (error: unknown) => error,
  );
}

describe('addMembership', () => {
  it('is PENDING and unbound for an email nobody has signed in with', async () => {
    const organization = await insertOrganization(handle.db);
    const membership = await addMembership(handle.db, {
      organizationId: organization.id,
      email: 'New.Person@Example.com',
      invitedName: 'New Person',
      role: 'Staff',
      permissions: ['catalog:write', 'orders:operate'],
      at: clock.now(),
    });

    expect(membership.id).toMatch(/^mem_[0-9A-Z]{26}$/);
    expect(membership).toMatchObject({
      organization_id: organization.id,
      user_id: null,
      email: 'new.person@example.com',
      invited_name: 'New Person',
      role: 'Staff',
      permissions: ['catalog:write', 'orders:operate'],
      status: 'PENDING',
    });
    expect(membership.created_at.toISOString()).toBe('2026-03-02T10:00:00.000Z');
    // Nothing is bound yet, so nothing is audited here (the binding at sign-in is).
    expect(await readAuditRows(handle.db, membership.id)).toEqual([]);
  });

  it('is ACTIVE and bound at once for the email of an existing user', async () => {
    const organization = await insertOrganization(handle.db);
    const claims = merchantClaims();
    const user = await resolveMerchantUser(handle.db, claims, clock.now());

    const membership = await addMembership(handle.db, {
      organizationId: organization.id,
      email: claims.email.toUpperCase(),
      role: 'Admin',
      permissions: [],
      at: clock.now(),
    });

    expect(membership).toMatchObject({ status: 'ACTIVE', user_id: user.id, email: claims.email });
    expect(await readMembership(handle.db, membership.id)).toEqual(membership);
  });

  it('audits the binding of the existing user as membership.activated, with that user as actor', async () => {
    const organization = await insertOrganization(handle.db);
    const claims = merchantClaims();
    const user = await resolveMerchantUser(handle.db, claims, clock.now());

    const membership = await addMembership(handle.db, {
      organizationId: organization.id,
      email: claims.email,
      role: 'Staff',
      permissions: [],
      at: clock.now(),
    });

    const audit = await readAuditRows(handle.db, membership.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      organization_id: organization.id,
      actor_user_id: user.id,
      actor_email: claims.email,
      action: 'membership.activated',
      target_type: 'membership',
      target_id: membership.id,
      metadata: { via: 'grant' },
    });
  });

  it('keeps permission groups for Staff only', async () => {
    const organization = await insertOrganization(handle.db);
    const admin = await addMembership(handle.db, {
      organizationId: organization.id,
      email: merchantClaims().email,
      role: 'Admin',
      permissions: ['catalog:write'],
      at: clock.now(),
    });
    const owner = await addMembership(handle.db, {
      organizationId: organization.id,
      email: merchantClaims().email,
      role: 'Owner',
      permissions: ['settings:manage'],
      at: clock.now(),
    });

    expect(admin.permissions).toEqual([]);
    expect(owner.permissions).toEqual([]);
  });

  it('refuses a second membership for the same organization and email, whatever its case', async () => {
    const organization = await insertOrganization(handle.db);
    const email = merchantClaims().email;
    const input = {
      organizationId: organization.id,
      role: 'Staff' as const,
      permissions: [],
      at: clock.now(),
    };
    await addMembership(handle.db, { ...input, email });

    const duplicate = await rejectionOf(addMembership(handle.db, { ...input, email }));
    expect(isUniqueViolation(duplicate, 'memberships_email_key')).toBe(true);
    const differentCase = await rejectionOf(
      addMembership(handle.db, { ...input, email: email.toUpperCase() }),
    );
    expect(isUniqueViolation(differentCase, 'memberships_email_key')).toBe(true);

    const rows = await handle.db
      .selectFrom('memberships')
      .select('id')
      .where('organization_id', '=', organization.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('allows the same email in another organization', async () => {
    const [first, second] = [await insertOrganization(handle.db), await insertOrganization(handle.db)];
    const email = merchantClaims().email;
    const input = { email, role: 'Staff' as const, permissions: [], at: clock.now() };
    const a = await addMembership(handle.db, { ...input, organizationId: first.id });
    const b = await addMembership(handle.db, { ...input, organizationId: second.id });
    expect(a.id).not.toBe(b.id);
  });
});
