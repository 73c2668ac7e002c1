import { addMembership, type PermissionGroup, resolveMerchantUser } from '@commerce/auth';
import type { Clock } from '@commerce/core';
import type { AuditLog, Database, Membership, MembershipRole } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { MembershipAdminContext } from '../src/memberships/schemas.ts';

let sequence = 0;
const next = () => {
  sequence += 1;
  return `${process.pid}-${sequence}`;
};

export interface TestMember {
  membership: Membership;
  email: string;
  userId: string;
  /** The context of a request by this member. */
  ctx: () => MembershipAdminContext;
}

export interface TestOrganization {
  id: string;
  /** A signed-in, active member with `role`. */
  member(role: MembershipRole, permissions?: PermissionGroup[]): Promise<TestMember>;
  /** A membership granted to an email nobody has signed in with. */
  pending(role: MembershipRole, permissions?: PermissionGroup[]): Promise<Membership>;
}

/** A fresh organization on `db` whose members sign in through the real sign-in path. */
export async function createTestOrganization(db: Kysely<Database>, clock: Clock): Promise<TestOrganization> {
  const n = next();
  const organization = await db
    .insertInto('organizations')
    .values({ id: `org_mem_${n}`, slug: `mem-${n}`, name: `Memberships ${n}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    id: organization.id,
    member: async (role, permissions = []) => {
      const email = `member-${next()}@example.com`;
      await addMembership(db, { organizationId: organization.id, email, role, permissions, at: clock.now() });
      const user = await resolveMerchantUser(
        db,
        { subject: `idp|${email}`, email, name: `Name of ${email}`, emailVerified: true },
        clock.now(),
      );
      const membership = await readMembership(db, organization.id, email);
      if (membership?.status !== 'ACTIVE') throw new Error(`member ${email} is not active`);
      return {
        membership,
        email,
        userId: user.id,
        ctx: () => ({
          organizationId: organization.id,
          actor: { userId: user.id, email, membershipId: membership.id, role },
          at: clock.now(),
        }),
      };
    },
    pending: (role, permissions = []) =>
      addMembership(db, {
        organizationId: organization.id,
        email: `pending-${next()}@example.com`,
        role,
        permissions,
        at: clock.now(),
      }),
  };
}

export async function readMembership(
  db: Kysely<Database>,
  organizationId: string,
  email: string,
): Promise<Membership | undefined> {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function readMembershipById(db: Kysely<Database>, id: string): Promise<Membership | undefined> {
  return db.selectFrom('memberships').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function auditRowsFor(db: Kysely<Database>, targetId: string): Promise<AuditLog[]> {
  return db
    .selectFrom('audit_logs')
    .selectAll()
    .where('target_id', '=', targetId)
    .where('action', 'like', 'membership.%')
    .where('action', '!=', 'membership.activated')
    .orderBy('id')
    .execute();
}

export async function activeOwnerCount(db: Kysely<Database>, organizationId: string): Promise<number> {
  const rows = await db
    .selectFrom('memberships')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'Owner')
    .where('status', '=', 'ACTIVE')
    .execute();
  return rows.length;
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<{ code?: string }> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as { code?: string },
  );
}

/** Settles every promise and reports each outcome as `ok` or the error code. */
export async function outcomes(promises: Promise<unknown>[]): Promise<string[]> {
  const settled = await Promise.allSettled(promises);
  return settled.map((result) =>
    result.status === 'fulfilled'
      ? 'ok'
      : String((result.reason as { code?: string }).code ?? (result.reason as Error).message),
  );
}
