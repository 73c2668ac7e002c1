import { addMembership, PERMISSION_GROUPS, type PermissionGroup } from '@commerce/auth';
import type { MembershipRole } from '@commerce/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, type Harness } from '../support/harness.ts';
import { ACTORS, type Actor, createRoleFixture, expectedStatus, type RoleFixture } from '../support/roles.ts';

interface MembershipBody {
  id: string;
  userId: string | null;
  email: string;
  name: string | null;
  role: MembershipRole;
  permissions: PermissionGroup[];
  status: 'PENDING' | 'ACTIVE';
  createdAt: string;
}

let h: Harness;
let f: RoleFixture;
let other: RoleFixture;
const ADMINS: readonly Actor[] = ['owner', 'admin'];

beforeAll(async () => {
  h = await createHarness();
  // Staff "with" holds every group: no permission group lets Staff administer memberships.
  f = await createRoleFixture(h, 'members', [...PERMISSION_GROUPS]);
  other = await createRoleFixture(h, 'members-other');
});
afterAll(async () => {
  await h.close();
});

const grant = (fx: RoleFixture, actor: Actor, body: unknown) =>
  fx.call(actor, 'POST', '/merchant/auth/memberships', body);
const patch = (fx: RoleFixture, actor: Actor, id: string, body: unknown) =>
  fx.call(actor, 'PATCH', `/merchant/auth/memberships/${id}`, body);
const remove = (fx: RoleFixture, actor: Actor, id: string) =>
  fx.call(actor, 'DELETE', `/merchant/auth/memberships/${id}`);

let seeded = 0;
/** A pending membership in the fixture's organization, granted behind the API's back. */
async function seed(fx: RoleFixture, role: MembershipRole, permissions: PermissionGroup[] = []) {
  seeded += 1;
  return addMembership(h.database.db, {
    organizationId: fx.organizationId,
    email: `seeded-${seeded}@${fx.slug}.test`,
    role,
    permissions,
    at: h.clock.now(),
  });
}

async function membershipRow(id: string) {
  return h.database.db.selectFrom('memberships').selectAll().where('id', '=', id).executeTakeFirst();
}

async function auditRows(organizationId: string, targetId: string) {
  return h.database.db
    .selectFrom('audit_logs')
    .select(['action', 'actor_user_id', 'target_type', 'target_id', 'metadata'])
    .where('organization_id', '=', organizationId)
    .where('target_id', '=', targetId)
    .orderBy('id')
    .execute();
}

async function expectRefused(response: Response, actor: Actor) {
  const status = expectedStatus(actor, [], 0);
  expect(response.status, actor).toBe(status);
  expect((await errorOf(response)).code, actor).toBe(status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
}

describe('POST /merchant/auth/memberships', () => {
  it.each(ACTORS)('grants Staff as %s only when Owner or Admin', async (actor) => {
    const email = `Staff.By.${actor}@Members.test`;
    const response = await grant(f, actor, { email, role: 'Staff', permissions: ['catalog:write'] });

    expect(response.status).toBe(expectedStatus(actor, ADMINS, 201));
    if (response.status !== 201) {
      await expectRefused(response, actor);
      const row = await h.database.db
        .selectFrom('memberships')
        .select('id')
        .where('organization_id', '=', f.organizationId)
        .where('email', '=', email.toLowerCase())
        .executeTakeFirst();
      expect(row).toBeUndefined();
      return;
    }
    const body = (await response.json()) as MembershipBody;
    expect(body).toEqual({
      id: expect.stringMatching(/^mem_[0-9A-Z]{26}$/),
      userId: null,
      email: email.toLowerCase(),
      name: null,
      role: 'Staff',
      permissions: ['catalog:write'],
      status: 'PENDING',
      createdAt: h.clock.now().toISOString(),
    });
    expect(await auditRows(f.organizationId, body.id)).toEqual([
      {
        action: 'membership.granted',
        actor_user_id: f.users[actor as 'owner' | 'admin'].userId,
        target_type: 'membership',
        target_id: body.id,
        metadata: { email: email.toLowerCase(), role: 'Staff', permissions: ['catalog:write'] },
      },
    ]);
  });

  it.each(ACTORS)('grants Owner as %s only when Owner', async (actor) => {
    const response = await grant(f, actor, { email: `owner-by-${actor}@members.test`, role: 'Owner' });
    expect(response.status).toBe(expectedStatus(actor, ['owner'], 201));
    if (response.status === 201) {
      expect(((await response.json()) as MembershipBody).role).toBe('Owner');
    } else {
      await expectRefused(response, actor);
    }
  });

  it.each(ACTORS)('grants Admin as %s only when Owner or Admin', async (actor) => {
    const response = await grant(f, actor, { email: `admin-by-${actor}@members.test`, role: 'Admin' });
    expect(response.status).toBe(expectedStatus(actor, ADMINS, 201));
    if (response.status !== 201) await expectRefused(response, actor);
  });

  it('checks the role before the body: Staff with a bad body is 403, not 400', async () => {
    const response = await grant(f, 'staffWith', { email: 'nope', role: 'Chief' });
    expect(response.status).toBe(403);
  });

  it('answers 400 VALIDATION_FAILED for bad bodies', async () => {
    const bodies: [string, unknown, string][] = [
      ['unknown key', { email: 'u1@members.test', role: 'Staff', name: 'Someone' }, ''],
      ['bad email', { email: 'not-an-email', role: 'Staff' }, 'email'],
      ['too long email', { email: `${'a'.repeat(320)}@members.test`, role: 'Staff' }, 'email'],
      ['missing email', { role: 'Staff' }, 'email'],
      ['unknown role', { email: 'u2@members.test', role: 'owner' }, 'role'],
      ['missing role', { email: 'u3@members.test' }, 'role'],
      [
        'unknown group',
        { email: 'u4@members.test', role: 'Staff', permissions: ['catalog:delete'] },
        'permissions.0',
      ],
      [
        'groups not a list',
        { email: 'u5@members.test', role: 'Staff', permissions: 'catalog:write' },
        'permissions',
      ],
      [
        'groups for Admin',
        { email: 'u6@members.test', role: 'Admin', permissions: ['catalog:write'] },
        'permissions',
      ],
      [
        'groups for Owner',
        { email: 'u7@members.test', role: 'Owner', permissions: ['settings:manage'] },
        'permissions',
      ],
    ];
    for (const [label, body, path] of bodies) {
      const response = await grant(f, 'owner', body);
      expect(response.status, label).toBe(400);
      const error = await errorOf(response);
      expect(error.code, label).toBe('VALIDATION_FAILED');
      expect(
        error.details?.issues?.map((issue) => issue.path),
        label,
      ).toContain(path);
    }
    const rows = await h.database.db
      .selectFrom('memberships')
      .select('email')
      .where('organization_id', '=', f.organizationId)
      .where('email', 'like', 'u_@members.test')
      .execute();
    expect(rows).toEqual([]);
  });

  it('accepts an empty group list for Admin', async () => {
    const response = await grant(f, 'owner', {
      email: 'admin-empty@members.test',
      role: 'Admin',
      permissions: [],
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as MembershipBody).permissions).toEqual([]);
  });

  it('answers 409 MEMBERSHIP_EXISTS for an email the organization already has, whatever its case', async () => {
    for (const email of [f.users.staffWithout.email, f.users.owner.email.toUpperCase()]) {
      const response = await grant(f, 'admin', { email, role: 'Staff' });
      expect(response.status, email).toBe(409);
      expect((await errorOf(response)).code).toBe('MEMBERSHIP_EXISTS');
    }
    // Another organization's member is no member here.
    expect((await grant(f, 'owner', { email: other.users.admin.email, role: 'Staff' })).status).toBe(201);
  });

  it('gives one 201 and 409 for the rest of concurrent grants of one email', async () => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        grant(f, index % 2 === 0 ? 'owner' : 'admin', {
          email: index % 2 === 0 ? 'race@members.test' : 'RACE@members.test',
          role: 'Staff',
        }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect((await errorOf(response)).code).toBe('MEMBERSHIP_EXISTS');
    }
  });

  it('binds a granted membership when that email signs in', async () => {
    const response = await grant(f, 'admin', {
      email: 'Newcomer@Members.test',
      role: 'Staff',
      permissions: ['orders:operate', 'customers:read'],
    });
    const granted = (await response.json()) as MembershipBody;
    expect(granted.status).toBe('PENDING');

    h.clock.advance(1000); // so that the activation's audit id sorts after the grant's
    const token = await h.token({ email: 'newcomer@members.test', name: 'New Comer' });
    const session = await h.app.request('/api/v1/merchant/auth/session', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(session.status).toBe(200);
    const body = (await session.json()) as {
      user: { id: string };
      memberships: (MembershipBody & { organization: { slug: string } })[];
    };
    expect(body.memberships).toEqual([
      {
        ...granted,
        userId: body.user.id,
        name: 'New Comer',
        status: 'ACTIVE',
        organization: { id: f.organizationId, slug: 'members', name: 'Org members' },
      },
    ]);
    const presets = await h.app.request('/api/v1/merchant/auth/permission-presets', {
      headers: { authorization: `Bearer ${token}`, 'x-organization-slug': 'members' },
    });
    expect(presets.status).toBe(200);
    expect((await auditRows(f.organizationId, granted.id)).map((row) => row.action)).toEqual([
      'membership.granted',
      'membership.activated',
    ]);
  });
});

describe('PATCH /merchant/auth/memberships/{id}', () => {
  it.each(ACTORS)("changes a Staff member's groups as %s only when Owner or Admin", async (actor) => {
    const target = await seed(f, 'Staff', ['catalog:write']);
    const response = await patch(f, actor, target.id, {
      permissions: ['orders:operate', 'fulfillment:operate'],
    });

    expect(response.status).toBe(expectedStatus(actor, ADMINS, 200));
    if (response.status !== 200) {
      await expectRefused(response, actor);
      expect((await membershipRow(target.id))?.permissions).toEqual(['catalog:write']);
      return;
    }
    expect(await response.json()).toMatchObject({
      id: target.id,
      role: 'Staff',
      permissions: ['orders:operate', 'fulfillment:operate'],
      status: 'PENDING',
    });
    expect(await auditRows(f.organizationId, target.id)).toEqual([
      {
        action: 'membership.updated',
        actor_user_id: f.users[actor as 'owner' | 'admin'].userId,
        target_type: 'membership',
        target_id: target.id,
        metadata: { fields: ['permissions'], permissions: ['orders:operate', 'fulfillment:operate'] },
      },
    ]);
  });

  it.each(ACTORS)('makes an Owner as %s only when Owner', async (actor) => {
    const target = await seed(f, 'Admin');
    const response = await patch(f, actor, target.id, { role: 'Owner' });
    expect(response.status).toBe(expectedStatus(actor, ['owner'], 200));
    if (response.status !== 200) await expectRefused(response, actor);
    expect((await membershipRow(target.id))?.role).toBe(response.status === 200 ? 'Owner' : 'Admin');
  });

  it.each(ACTORS)('demotes an Owner as %s only when Owner', async (actor) => {
    const target = await seed(f, 'Owner');
    const response = await patch(f, actor, target.id, { role: 'Staff', permissions: ['catalog:write'] });
    expect(response.status).toBe(expectedStatus(actor, ['owner'], 200));
    if (response.status !== 200) {
      await expectRefused(response, actor);
      expect((await membershipRow(target.id))?.role).toBe('Owner');
      return;
    }
    expect(await response.json()).toMatchObject({ role: 'Staff', permissions: ['catalog:write'] });
    expect((await auditRows(f.organizationId, target.id))[0]?.metadata).toEqual({
      fields: ['role', 'permissions'],
      role: 'Staff',
      previousRole: 'Owner',
      permissions: ['catalog:write'],
    });
  });

  it('clears the groups when the role leaves Staff', async () => {
    const target = await seed(f, 'Staff', ['catalog:write', 'content:write']);
    const response = await patch(f, 'admin', target.id, { role: 'Admin' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ role: 'Admin', permissions: [] });
    expect((await membershipRow(target.id))?.permissions).toEqual([]);
  });

  it('answers 404 for an unknown id and for a membership of another organization', async () => {
    const foreign = await seed(other, 'Staff');
    for (const id of ['mem_00000000000000000000000000', foreign.id]) {
      const response = await patch(f, 'owner', id, { role: 'Admin' });
      expect(response.status, id).toBe(404);
      expect((await errorOf(response)).code).toBe('RESOURCE_NOT_FOUND');
    }
    expect((await membershipRow(foreign.id))?.role).toBe('Staff');
  });

  it('answers 400 VALIDATION_FAILED for bad bodies', async () => {
    const staff = await seed(f, 'Staff');
    const admin = await seed(f, 'Admin');
    const cases: [string, string, unknown][] = [
      ['empty body', staff.id, {}],
      ['unknown key', staff.id, { role: 'Staff', email: 'x@members.test' }],
      ['unknown role', staff.id, { role: 'Manager' }],
      ['unknown group', staff.id, { permissions: ['orders:delete'] }],
      ['groups with a non-Staff role', staff.id, { role: 'Admin', permissions: ['orders:operate'] }],
      ['groups for an Admin', admin.id, { permissions: ['orders:operate'] }],
    ];
    for (const [label, id, body] of cases) {
      const response = await patch(f, 'owner', id, body);
      expect(response.status, label).toBe(400);
      expect((await errorOf(response)).code, label).toBe('VALIDATION_FAILED');
    }
    expect(await auditRows(f.organizationId, staff.id)).toEqual([]);
    expect(await auditRows(f.organizationId, admin.id)).toEqual([]);
  });
});

describe('DELETE /merchant/auth/memberships/{id}', () => {
  it.each(ACTORS)('removes a Staff membership as %s only when Owner or Admin', async (actor) => {
    const target = await seed(f, 'Staff', ['catalog:write']);
    const response = await remove(f, actor, target.id);

    expect(response.status).toBe(expectedStatus(actor, ADMINS, 204));
    if (response.status !== 204) {
      await expectRefused(response, actor);
      expect(await membershipRow(target.id)).toBeDefined();
      return;
    }
    expect(await response.text()).toBe('');
    expect(await membershipRow(target.id)).toBeUndefined();
    expect(await auditRows(f.organizationId, target.id)).toEqual([
      {
        action: 'membership.removed',
        actor_user_id: f.users[actor as 'owner' | 'admin'].userId,
        target_type: 'membership',
        target_id: target.id,
        metadata: { email: target.email, role: 'Staff', status: 'PENDING', userId: null },
      },
    ]);
  });

  it.each(ACTORS)('removes an Owner membership as %s only when Owner', async (actor) => {
    const target = await seed(f, 'Owner');
    const response = await remove(f, actor, target.id);
    expect(response.status).toBe(expectedStatus(actor, ['owner'], 204));
    if (response.status !== 204) await expectRefused(response, actor);
    expect(await membershipRow(target.id)).toEqual(response.status === 204 ? undefined : expect.anything());
  });

  it('answers 404 for an unknown id, a removed one and a membership of another organization', async () => {
    const foreign = await seed(other, 'Staff');
    const removed = await seed(f, 'Staff');
    expect((await remove(f, 'admin', removed.id)).status).toBe(204);
    for (const id of ['mem_00000000000000000000000000', removed.id, foreign.id]) {
      const response = await remove(f, 'owner', id);
      expect(response.status, id).toBe(404);
      expect((await errorOf(response)).code).toBe('RESOURCE_NOT_FOUND');
    }
    expect(await membershipRow(foreign.id)).toBeDefined();
  });
});

describe('the last Owner', () => {
  it('cannot be demoted or removed (409 LAST_OWNER); another active Owner makes both possible', async () => {
    const solo = await createRoleFixture(h, 'solo-owner');
    const ownerId = await membershipIdOf(solo, 'owner');

    for (const response of [
      await patch(solo, 'owner', ownerId, { role: 'Admin' }),
      await remove(solo, 'owner', ownerId),
    ]) {
      expect(response.status).toBe(409);
      expect((await errorOf(response)).code).toBe('LAST_OWNER');
    }
    expect((await membershipRow(ownerId))?.role).toBe('Owner');

    // A pending Owner grant does not count: it may never be claimed.
    const pending = (await (
      await grant(solo, 'owner', { email: 'heir@solo.test', role: 'Owner' })
    ).json()) as {
      id: string;
    };
    expect((await patch(solo, 'owner', ownerId, { role: 'Admin' })).status).toBe(409);

    await h.app.request('/api/v1/merchant/auth/session', {
      headers: { authorization: `Bearer ${await h.token({ email: 'heir@solo.test' })}` },
    });
    expect((await membershipRow(pending.id))?.status).toBe('ACTIVE');
    const stepDown = await patch(solo, 'owner', ownerId, { role: 'Admin' });
    expect(stepDown.status).toBe(200);
    const updates = (await auditRows(solo.organizationId, ownerId)).filter(
      (row) => row.action === 'membership.updated',
    );
    expect(updates.map((row) => [row.actor_user_id, row.metadata])).toEqual([
      [solo.users.owner.userId, { fields: ['role'], role: 'Admin', previousRole: 'Owner' }],
    ]);
  });

  /** A second, signed-in Owner of `fx`: its membership id and a request helper. */
  async function secondOwner(fx: RoleFixture, email: string) {
    await grant(fx, 'owner', { email, role: 'Owner' });
    const token = await h.token({ email });
    const session = (await (
      await h.app.request('/api/v1/merchant/auth/session', { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { memberships: { id: string; organization: { slug: string } }[] };
    const membership = session.memberships.find((m) => m.organization.slug === fx.slug)!;
    const patchAs = (id: string, body: unknown) =>
      h.app.request(`/api/v1/merchant/auth/memberships/${id}`, {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${token}`,
          'x-organization-slug': fx.slug,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    return { id: membership.id, patchAs };
  }

  async function ownerCount(fx: RoleFixture) {
    const owners = await h.database.db
      .selectFrom('memberships')
      .select('id')
      .where('organization_id', '=', fx.organizationId)
      .where('role', '=', 'Owner')
      .execute();
    return owners.length;
  }

  it('survives two Owners demoting themselves at the same time: one 200, one 409 LAST_OWNER', async () => {
    const duo = await createRoleFixture(h, 'duo-owners');
    const second = await secondOwner(duo, 'second@duo-owners.test');
    const firstId = await membershipIdOf(duo, 'owner');

    const responses = await Promise.all([
      patch(duo, 'owner', firstId, { role: 'Admin' }),
      second.patchAs(second.id, { role: 'Admin' }),
    ]);

    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    expect((await errorOf(responses.find((response) => response.status === 409)!)).code).toBe('LAST_OWNER');
    expect(await ownerCount(duo)).toBe(1);
  });

  it('survives two Owners demoting each other at the same time: one 200, the other refused', async () => {
    const pair = await createRoleFixture(h, 'pair-owners');
    const second = await secondOwner(pair, 'second@pair-owners.test');
    const firstId = await membershipIdOf(pair, 'owner');

    const responses = await Promise.all([
      patch(pair, 'owner', second.id, { role: 'Admin' }),
      second.patchAs(firstId, { role: 'Admin' }),
    ]);

    expect(responses.map((response) => response.status).sort()).toEqual([200, expect.any(Number)]);
    const loser = responses.find((response) => response.status !== 200)!;
    // LAST_OWNER when both were Owners as their requests began; FORBIDDEN when the loser's
    // request began after it had already lost the Owner role.
    expect(['LAST_OWNER', 'FORBIDDEN']).toContain((await errorOf(loser)).code);
    expect(await ownerCount(pair)).toBe(1);
  });
});

describe('GET /merchant/auth/permission-presets', () => {
  it.each(ACTORS)('lists the presets for %s when a member', async (actor) => {
    const response = await f.call(actor, 'GET', '/merchant/auth/permission-presets');
    expect(response.status).toBe(expectedStatus(actor, ['owner', 'admin', 'staffWith', 'staffWithout'], 200));
    if (response.status !== 200) {
      await expectRefused(response, actor);
      return;
    }
    const body = (await response.json()) as {
      data: { key: string; name: string; description: string; permissions: string[] }[];
    };
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.map((preset) => preset.key)).toEqual([
      'catalog_manager',
      'fulfillment',
      'customer_support',
      'bookings_manager',
      'store_settings',
      'developer',
    ]);
    for (const preset of body.data) {
      expect(preset.permissions.length).toBeGreaterThan(0);
      for (const group of preset.permissions) expect(PERMISSION_GROUPS).toContain(group);
    }
  });
});

describe('OpenAPI', () => {
  it('documents the membership routes with their success status and error codes', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { tags: string[]; responses: Record<string, unknown> }>>;
    };
    const grantOp = document.paths['/merchant/auth/memberships']?.post;
    const updateOp = document.paths['/merchant/auth/memberships/{id}']?.patch;
    const removeOp = document.paths['/merchant/auth/memberships/{id}']?.delete;
    const presetsOp = document.paths['/merchant/auth/permission-presets']?.get;

    expect(grantOp?.tags).toEqual(['Merchant: auth']);
    expect(Object.keys(grantOp!.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '409']),
    );
    expect(JSON.stringify(grantOp!.responses['409'])).toContain('MEMBERSHIP_EXISTS');
    expect(Object.keys(updateOp!.responses)).toEqual(expect.arrayContaining(['200', '404', '409']));
    expect(JSON.stringify(updateOp!.responses['409'])).toContain('LAST_OWNER');
    expect(Object.keys(removeOp!.responses)).toEqual(expect.arrayContaining(['204', '404', '409']));
    expect(removeOp!.responses['200']).toBeUndefined();
    expect(JSON.stringify(removeOp!.responses['409'])).toContain('LAST_OWNER');
    expect(Object.keys(presetsOp!.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
  });
});

async function membershipIdOf(fx: RoleFixture, actor: Exclude<Actor, 'anonymous'>): Promise<string> {
  const row = await h.database.db
    .selectFrom('memberships')
    .select('id')
    .where('organization_id', '=', fx.organizationId)
    .where('email', '=', fx.users[actor].email)
    .executeTakeFirstOrThrow();
  return row.id;
}
