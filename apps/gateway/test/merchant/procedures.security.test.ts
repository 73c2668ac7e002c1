import { appRouter, merchantProcedureFor, merchantProcedureWith, router } from '@commerce/api';
import { addMembership } from '@commerce/auth';
import type { MembershipRole } from '@commerce/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness, errorOf, type Harness } from '../support/harness.ts';

const testRouter = router({
  ...appRouter._def.record,
  probe: router({
    catalogWrite: merchantProcedureWith('catalog:write')
      .meta({ openapi: { method: 'POST', path: '/test/catalog-write' } })
      .input(z.object({}))
      .output(z.object({ role: z.string() }))
      .mutation(({ ctx }) => ({ role: ctx.membership.role })),
    ownersOnly: merchantProcedureFor('Owner', 'Admin')
      .meta({ openapi: { method: 'GET', path: '/test/owners-only' } })
      .input(z.object({}))
      .output(z.object({ role: z.string() }))
      .query(({ ctx }) => ({ role: ctx.membership.role })),
  }),
});

let h: Harness;
let organizationId: string;
const tokens: Record<string, string> = {};

/** Signs a user in (verified), then grants them a membership that binds at once. */
async function member(
  email: string,
  role: MembershipRole,
  permissions: ('catalog:write' | 'orders:operate')[] = [],
) {
  tokens[email] = await h.token({ email });
  await h.app.request('/api/v1/merchant/auth/session', {
    headers: { authorization: `Bearer ${tokens[email]}` },
  });
  await addMembership(h.database.db, { organizationId, email, role, permissions, at: h.clock.now() });
}

beforeAll(async () => {
  h = await createHarness({ router: testRouter });
  organizationId = (await h.provision('shop', 'owner@shop.test')).id;
  tokens['owner@shop.test'] = await h.token({ email: 'owner@shop.test' });
  await member('admin@shop.test', 'Admin');
  await member('writer@shop.test', 'Staff', ['catalog:write']);
  await member('clerk@shop.test', 'Staff', ['orders:operate']);
  tokens['stranger@elsewhere.test'] = await h.token({ email: 'stranger@elsewhere.test' });
});
afterAll(async () => {
  await h.close();
});

const call = (path: string, email: string | undefined, method = 'GET') =>
  h.app.request(`/api/v1${path}`, {
    method,
    headers: {
      'x-organization-slug': 'shop',
      ...(email ? { authorization: `Bearer ${tokens[email]}` } : {}),
    },
  });

describe('permission-group middleware', () => {
  const cases: [string | undefined, number][] = [
    ['owner@shop.test', 200],
    ['admin@shop.test', 200],
    ['writer@shop.test', 200],
    ['clerk@shop.test', 403],
    ['stranger@elsewhere.test', 403],
    [undefined, 401],
  ];
  for (const [email, status] of cases) {
    it(`answers ${status} to ${email ?? 'an anonymous caller'}`, async () => {
      const response = await call('/test/catalog-write', email, 'POST');
      expect(response.status).toBe(status);
      if (status !== 200) {
        expect((await errorOf(response)).code).toBe(status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
      }
    });
  }
});

describe('role middleware', () => {
  it('admits Owner and Admin and refuses Staff, whatever their groups', async () => {
    expect((await call('/test/owners-only', 'owner@shop.test')).status).toBe(200);
    expect((await call('/test/owners-only', 'admin@shop.test')).status).toBe(200);
    const staff = await call('/test/owners-only', 'writer@shop.test');
    expect(staff.status).toBe(403);
    expect((await errorOf(staff)).code).toBe('FORBIDDEN');
  });
});

describe('/trpc for first-party apps', () => {
  it('serves the same procedures with the contract code in the error data', async () => {
    const ok = await h.app.request('/trpc/public.organization.get?input=%7B%7D', {
      headers: { 'x-organization-slug': 'shop' },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ result: { data: { slug: 'shop' } } });

    const denied = await h.app.request('/trpc/probe.ownersOnly?input=%7B%7D', {
      headers: { 'x-organization-slug': 'shop', authorization: `Bearer ${tokens['writer@shop.test']}` },
    });
    expect(denied.status).toBe(403);
    expect(denied.headers.get('x-request-id')).toMatch(/^req_/);
    const body = (await denied.json()) as { error: { data: { appCode: string; stack?: string } } };
    expect(body.error.data.appCode).toBe('FORBIDDEN');
    expect(body.error.data.stack).toBeUndefined();
  });
});
