import { PERMISSION_GROUPS } from '@commerce/auth';
import { recordAudit } from '@commerce/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, type Harness } from '../support/harness.ts';
import { ACTORS, createRoleFixture, expectedStatus, type RoleFixture } from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
const OWNER_AND_ADMIN = ['owner', 'admin'] as const;

beforeAll(async () => {
  h = await createHarness();
  // Staff holds every group: reading the audit log is reserved to roles, not groups.
  shop = await createRoleFixture(h, 'audit-shop', [...PERMISSION_GROUPS]);
  other = await createRoleFixture(h, 'audit-other');
  const at = h.clock.now().getTime();
  for (const [index, action] of ['settings.updated', 'item.created', 'item.updated'].entries()) {
    await recordAudit(h.database.db, {
      organizationId: shop.organizationId,
      actor: { userId: shop.users.owner.userId, email: shop.users.owner.email },
      action,
      targetType: action.split('.')[0]!,
      targetId: index === 2 ? '=2+5' : `target_${index}`,
      metadata: { index },
      at: new Date(at + index * 1000),
    });
  }
  await recordAudit(h.database.db, {
    organizationId: other.organizationId,
    actor: { userId: other.users.owner.userId, email: other.users.owner.email },
    action: 'item.created',
    targetType: 'item',
    targetId: 'foreign',
    at: new Date(at),
  });
});
afterAll(async () => {
  await h.close();
});

interface AuditPage {
  data: { id: string; action: string; targetId: string | null; actorUserId: string | null }[];
  nextCursor: string | null;
}

describe('GET /merchant/audit-logs', () => {
  for (const actor of ACTORS) {
    it(`answers ${expectedStatus(actor, OWNER_AND_ADMIN, 200)} to ${actor}`, async () => {
      const response = await shop.call(actor, 'GET', '/merchant/audit-logs');
      expect(response.status).toBe(expectedStatus(actor, OWNER_AND_ADMIN, 200));
      if (response.status !== 200) {
        expect((await errorOf(response)).code).toBe(actor === 'anonymous' ? 'UNAUTHENTICATED' : 'FORBIDDEN');
      }
    });
  }

  it("lists the organization's records newest first, never another's, without the actor's email", async () => {
    const response = await shop.call('admin', 'GET', '/merchant/audit-logs?targetType=item');
    const page = (await response.json()) as AuditPage;
    expect(page.data.map((row) => row.action)).toEqual(['item.updated', 'item.created']);
    expect(page.data.map((row) => row.targetId)).not.toContain('foreign');
    expect(JSON.stringify(page)).not.toContain(shop.users.owner.email);
    expect(page.nextCursor).toBeNull();
  });

  it('pages with limit and cursor', async () => {
    const first = (await (
      await shop.call('owner', 'GET', '/merchant/audit-logs?action=item&limit=1')
    ).json()) as AuditPage;
    expect(first.data.map((row) => row.action)).toEqual(['item.updated']);
    expect(first.nextCursor).toBe(first.data[0]!.id);
    const second = (await (
      await shop.call('owner', 'GET', `/merchant/audit-logs?action=item&limit=1&cursor=${first.nextCursor}`)
    ).json()) as AuditPage;
    expect(second.data.map((row) => row.action)).toEqual(['item.created']);
  });

  const invalid: [string, string][] = [
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=abc', 'limit'],
    ['since=yesterday', 'since'],
    ['until=2026-13-01T00:00:00Z', 'until'],
    ['since=2026-03-02T00:00:00Z&until=2026-03-01T00:00:00Z', 'until'],
    [`action=${'x'.repeat(101)}`, 'action'],
  ];
  for (const [search, path] of invalid) {
    it(`answers 400 VALIDATION_FAILED naming ${path} for ${search.slice(0, 40)}`, async () => {
      const response = await shop.call('owner', 'GET', `/merchant/audit-logs?${search}`);
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details?.issues?.map((issue) => issue.path)).toContain(path);
    });
  }
});

describe('GET /merchant/audit-logs/export', () => {
  for (const actor of ACTORS) {
    it(`answers ${expectedStatus(actor, OWNER_AND_ADMIN, 200)} to ${actor}`, async () => {
      const response = await shop.call(actor, 'GET', '/merchant/audit-logs/export');
      expect(response.status).toBe(expectedStatus(actor, OWNER_AND_ADMIN, 200));
      if (response.status !== 200) {
        expect((await errorOf(response)).code).toBe(actor === 'anonymous' ? 'UNAUTHENTICATED' : 'FORBIDDEN');
      } else {
        await response.body?.cancel();
      }
    });
  }

  it('streams a CSV attachment with the filters applied and formula cells neutralised', async () => {
    const response = await shop.call('admin', 'GET', '/merchant/audit-logs/export?action=item');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="audit-log-audit-shop-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const lines = (await response.text()).split('\r\n');
    expect(lines[0]).toBe('timestamp,actorUserId,actorEmail,action,targetType,targetId,metadata');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(
      `,${shop.users.owner.userId},${shop.users.owner.email},item.updated,item,'=2+5,`,
    );
    expect(lines[2]).toContain(',item.created,item,target_1,');
    expect(lines[3]).toBe('');
  });

  it('validates the filters like the list', async () => {
    const response = await shop.call('owner', 'GET', '/merchant/audit-logs/export?since=not-a-date');
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('VALIDATION_FAILED');
  });

  it('is not served over /trpc', async () => {
    const response = await h.app.request('/trpc/merchant.auditLogs.export?input=%7B%7D', {
      headers: { authorization: `Bearer ${shop.users.owner.token}`, 'x-organization-slug': shop.slug },
    });
    expect(response.status).toBe(404);
    // The procedure itself refused (an unknown procedure would carry no application code).
    expect(JSON.stringify(await response.json())).toContain('"appCode":"RESOURCE_NOT_FOUND"');
  });

  it('is documented as a text/csv attachment in the OpenAPI document', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>
      >;
    };
    const operation = document.paths['/merchant/audit-logs/export']!.get!;
    expect(Object.keys(operation.responses['200']!.content ?? {})).toEqual(['text/csv']);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404']));
  });
});
