import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, expectError, type Harness } from '../support/harness.ts';
import {
  ACTORS,
  type Actor,
  createRoleFixture,
  expectedStatus,
  MEMBER_ACTORS,
  type RoleFixture,
} from '../support/roles.ts';

interface PageBody {
  id: string;
  slug: string;
  title: string;
  content: string;
  excerpt: string | null;
  status: 'PUBLISHED' | 'DRAFT';
  archivedAt: string | null;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
const WRITERS: readonly Actor[] = ['owner', 'admin', 'staffWith'];

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'pages-shop', ['content:write']);
  // Staff "with" of the other shop holds catalog:write, which does not cover pages.
  other = await createRoleFixture(h, 'pages-other', ['catalog:write', 'settings:manage']);
});
afterAll(async () => {
  await h.close();
});

let sequence = 0;
const nextSlug = (prefix: string) => {
  sequence += 1;
  return `${prefix}-${sequence}`;
};

async function seedPage(fx: RoleFixture, body: Record<string, unknown> = {}): Promise<PageBody> {
  const response = await fx.call('owner', 'POST', '/merchant/pages', {
    title: 'Seeded',
    slug: nextSlug('seeded'),
    content: '<p>Seeded</p>',
    status: 'PUBLISHED',
    ...body,
  });
  if (response.status !== 201) throw new Error(`seed: ${response.status} ${await response.text()}`);
  return (await response.json()) as PageBody;
}

async function pageRow(id: string) {
  return h.database.db.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirst();
}

async function auditOf(action: string, targetId: string) {
  return h.database.db
    .selectFrom('audit_logs')
    .select(['actor_user_id', 'target_type', 'metadata'])
    .where('action', '=', action)
    .where('target_id', '=', targetId)
    .execute();
}

async function expectDenied(response: Response, actor: Actor) {
  const status = expectedStatus(actor, [], 0);
  expect(response.status, actor).toBe(status);
  expect((await errorOf(response)).code, actor).toBe(status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
}

describe('POST /merchant/pages', () => {
  it.each(ACTORS)('creates as %s only with content:write', async (actor) => {
    const slug = nextSlug(`by-${actor.toLowerCase()}`);
    const response = await shop.call(actor, 'POST', '/merchant/pages', {
      title: `By ${actor}`,
      slug,
      content: '<h2>Hello</h2><script>alert(1)</script><p onclick="x()">World</p>',
      status: 'PUBLISHED',
      excerpt: 'Greeting',
    });

    expect(response.status, actor).toBe(expectedStatus(actor, WRITERS, 201));
    const row = await h.database.db
      .selectFrom('pages')
      .select('id')
      .where('organization_id', '=', shop.organizationId)
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (response.status !== 201) {
      await expectDenied(response, actor);
      expect(row).toBeUndefined();
      return;
    }
    const now = h.clock.now().toISOString();
    const body = (await response.json()) as PageBody;
    expect(body).toEqual({
      id: expect.stringMatching(/^pag_/),
      slug,
      title: `By ${actor}`,
      content: '<h2>Hello</h2><p>World</p>',
      excerpt: 'Greeting',
      status: 'PUBLISHED',
      archivedAt: null,
      publishedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    expect(await auditOf('page.created', body.id)).toEqual([
      {
        actor_user_id: shop.users[actor as 'owner'].userId,
        target_type: 'page',
        metadata: { slug, title: `By ${actor}`, status: 'PUBLISHED' },
      },
    ]);
  });

  it('answers 409 SLUG_TAKEN, and exactly one 201 to concurrent creates of one slug', async () => {
    const existing = await seedPage(shop);
    await expectError(
      await shop.call('admin', 'POST', '/merchant/pages', {
        title: 'Again',
        slug: existing.slug,
        content: '',
        status: 'DRAFT',
      }),
      409,
      'SLUG_TAKEN',
    );

    const slug = nextSlug('race');
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        shop.call('staffWith', 'POST', '/merchant/pages', {
          title: 'Race',
          slug,
          content: '<p>r</p>',
          status: 'DRAFT',
        }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('answers 400 for invalid bodies', async () => {
    const base = { title: 'T', slug: 'bad-page', content: '<p>x</p>', status: 'DRAFT' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, slug: 'Bad_Page' }, 'slug'],
      [{ ...base, title: 'x'.repeat(201) }, 'title'],
      [{ ...base, content: 'x'.repeat(200_001) }, 'content'],
      [{ ...base, excerpt: 'x'.repeat(1001) }, 'excerpt'],
      [{ ...base, status: 'ARCHIVED' }, 'status'],
      [{ ...base, content: undefined }, 'content'],
      [{ ...base, publishedAt: '2026-01-01T00:00:00Z' }, ''],
    ];
    for (const [body, path] of cases) {
      const error = await expectError(
        await shop.call('owner', 'POST', '/merchant/pages', body),
        400,
        'VALIDATION_FAILED',
      );
      expect(
        error.details?.issues?.map((issue) => issue.path),
        path,
      ).toContain(path);
    }
  });
});

describe('merchant page reads', () => {
  it.each(ACTORS)('list and get answer %s when a member', async (actor) => {
    const page = await seedPage(shop);
    const success = expectedStatus(actor, MEMBER_ACTORS, 200);

    const list = await shop.call(actor, 'GET', '/merchant/pages?limit=200');
    const one = await shop.call(actor, 'GET', `/merchant/pages/${page.id}`);

    for (const response of [list, one]) expect(response.status, actor).toBe(success);
    if (success !== 200) {
      for (const response of [list, one]) await expectDenied(response, actor);
      return;
    }
    const { content: _content, ...summary } = page;
    const data = ((await list.json()) as { data: Record<string, unknown>[] }).data;
    expect(data.find((row) => row.id === page.id)).toEqual(summary);
    expect(await one.json()).toEqual(page);
  });

  it('is 404 for another organization’s page, and filters archived and status', async () => {
    const theirs = await seedPage(other);
    await expectError(
      await shop.call('owner', 'GET', `/merchant/pages/${theirs.id}`),
      404,
      'RESOURCE_NOT_FOUND',
    );

    const draft = await seedPage(shop, { status: 'DRAFT' });
    await shop.call('owner', 'POST', `/merchant/pages/${draft.id}/archive`);
    const ids = async (query: string) =>
      (
        (await (await shop.call('staffWithout', 'GET', `/merchant/pages?limit=200${query}`)).json()) as {
          data: PageBody[];
        }
      ).data.map((row) => row.id);
    expect(await ids('')).not.toContain(draft.id);
    expect(await ids('&archived=TRUE')).toContain(draft.id);
    expect(await ids('&archived=true&status=PUBLISHED')).not.toContain(draft.id);
    expect(await ids('&archived=true')).not.toContain(theirs.id);
    await expectError(
      await shop.call('owner', 'GET', '/merchant/pages?archived=2'),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('PATCH /merchant/pages/{id}', () => {
  it.each(ACTORS)('updates as %s only with content:write', async (actor) => {
    const page = await seedPage(shop, { status: 'DRAFT' });
    h.clock.advance(1000);

    const response = await shop.call(actor, 'PATCH', `/merchant/pages/${page.id}`, {
      status: 'PUBLISHED',
      content: '<p>New</p><img src="x" onerror="alert(1)">',
    });

    expect(response.status, actor).toBe(expectedStatus(actor, WRITERS, 200));
    const row = await pageRow(page.id);
    if (response.status !== 200) {
      await expectDenied(response, actor);
      expect(row).toMatchObject({ status: 'DRAFT', content: '<p>Seeded</p>', published_at: null });
      return;
    }
    const now = h.clock.now().toISOString();
    expect(await response.json()).toMatchObject({
      status: 'PUBLISHED',
      content: '<p>New</p>',
      publishedAt: now,
      updatedAt: now,
    });
    expect((await auditOf('page.updated', page.id)).map((audit) => audit.metadata)).toEqual([
      { fields: ['content', 'status'] },
    ]);
  });

  it('answers 409 for a taken slug and 404 for another organization’s page', async () => {
    const one = await seedPage(shop);
    const two = await seedPage(shop);
    const theirs = await seedPage(other);
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/pages/${two.id}`, { slug: one.slug }),
      409,
      'SLUG_TAKEN',
    );
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/pages/${theirs.id}`, { title: 'Mine' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expect((await pageRow(theirs.id))?.title).toBe('Seeded');
  });

  it('refuses catalog:write alone: pages need content:write', async () => {
    const page = await seedPage(other);
    const response = await other.call('staffWith', 'PATCH', `/merchant/pages/${page.id}`, { title: 'Nope' });
    await expectError(response, 403, 'FORBIDDEN');
  });
});

describe('POST /merchant/pages/{id}/archive and /restore', () => {
  it.each(ACTORS)(
    'archives and restores as %s only with content:write; restore gives a DRAFT',
    async (actor) => {
      const page = await seedPage(shop);
      h.clock.advance(1000);

      const archive = await shop.call(actor, 'POST', `/merchant/pages/${page.id}/archive`);
      expect(archive.status, actor).toBe(expectedStatus(actor, WRITERS, 201));
      if (archive.status !== 201) {
        await expectDenied(archive, actor);
        expect((await pageRow(page.id))?.archived_at).toBeNull();
        await shop.call('owner', 'POST', `/merchant/pages/${page.id}/archive`);
        await expectDenied(await shop.call(actor, 'POST', `/merchant/pages/${page.id}/restore`), actor);
        expect((await pageRow(page.id))?.archived_at).not.toBeNull();
        return;
      }
      const archived = (await archive.json()) as PageBody;
      expect(archived).toMatchObject({ status: 'PUBLISHED', archivedAt: h.clock.now().toISOString() });
      const again = await shop.call(actor, 'POST', `/merchant/pages/${page.id}/archive`);
      expect(again.status).toBe(201);
      expect(await again.json()).toEqual(archived);

      const restore = await shop.call(actor, 'POST', `/merchant/pages/${page.id}/restore`);
      expect(restore.status).toBe(201);
      expect(await restore.json()).toMatchObject({
        status: 'DRAFT',
        archivedAt: null,
        publishedAt: page.publishedAt,
      });
      expect((await shop.call(actor, 'POST', `/merchant/pages/${page.id}/restore`)).status).toBe(201);
      expect(await auditOf('page.archived', page.id)).toHaveLength(1);
      expect(await auditOf('page.restored', page.id)).toHaveLength(1);
    },
  );

  it('is 404 for another organization’s page', async () => {
    const theirs = await seedPage(other);
    await expectError(
      await shop.call('owner', 'POST', `/merchant/pages/${theirs.id}/archive`),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expect((await pageRow(theirs.id))?.archived_at).toBeNull();
  });
});
