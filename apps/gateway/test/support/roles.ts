import { addMembership, type PermissionGroup } from '@commerce/auth';
import type { Harness } from './harness.ts';

/**
 * The callers every role and permission rule is tested against: the Owner,
 * an Admin, Staff holding the permission group under test, Staff without it,
 * a signed-in user who is not a member, and no credential at all.
 */
export const MEMBER_ACTORS = ['owner', 'admin', 'staffWith', 'staffWithout'] as const;
export const ACTORS = [...MEMBER_ACTORS, 'outsider', 'anonymous'] as const;
export type MemberActor = (typeof MEMBER_ACTORS)[number];
export type Actor = (typeof ACTORS)[number];

export interface RoleFixture {
  slug: string;
  organizationId: string;
  /** Email and merchant user id of each signed-in actor. */
  users: Record<Exclude<Actor, 'anonymous'>, { email: string; userId: string; token: string }>;
  /** A request to `/api/v1{path}` as `actor`, with the tenant header, the JSON body if any and `headers` (an idempotency key). */
  call(
    actor: Actor,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Response>;
}

/**
 * Provisions `slug` and signs every actor in, so that memberships are bound
 * and each user exists. `staffPermissions` are the groups of the `staffWith`
 * member (`staffWithout` has none).
 */
export async function createRoleFixture(
  h: Harness,
  slug: string,
  staffPermissions: PermissionGroup[] = [],
): Promise<RoleFixture> {
  const email = (actor: string) => `${actor.toLowerCase()}@${slug}.test`;
  const organization = await h.provision(slug, email('owner'));
  const grants: [MemberActor, 'Admin' | 'Staff', PermissionGroup[]][] = [
    ['admin', 'Admin', []],
    ['staffWith', 'Staff', staffPermissions],
    ['staffWithout', 'Staff', []],
  ];
  for (const [actor, role, permissions] of grants) {
    await addMembership(h.database.db, {
      organizationId: organization.id,
      email: email(actor),
      role,
      permissions,
      at: h.clock.now(),
    });
  }

  const users = {} as RoleFixture['users'];
  for (const actor of [...MEMBER_ACTORS, 'outsider'] as const) {
    const token = await h.token({ email: email(actor), name: actor });
    const response = await h.app.request('/api/v1/merchant/auth/session', {
      headers: { authorization: `Bearer ${token}` },
    });
    if (response.status !== 200) throw new Error(`sign-in of ${actor}: ${response.status}`);
    const session = (await response.json()) as { user: { id: string } };
    users[actor] = { email: email(actor), userId: session.user.id, token };
  }

  return {
    slug,
    organizationId: organization.id,
    users,
    call: async (actor, method, path, body, extra = {}) => {
      const headers: Record<string, string> = { 'x-organization-slug': slug };
      if (actor !== 'anonymous') headers.authorization = `Bearer ${users[actor].token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      return h.app.request(`/api/v1${path}`, {
        method,
        headers: { ...headers, ...extra },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    },
  };
}

/** The status each actor gets from a route open to `allowed`: 401 without a credential, 403 otherwise. */
export function expectedStatus(actor: Actor, allowed: readonly Actor[], success: number): number {
  if (allowed.includes(actor)) return success;
  return actor === 'anonymous' ? 401 : 403;
}
