import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRows, createTestShop, outcomes, rejectionOf, type TestShop } from '../../test/collections.ts';
import { archivePage, restorePage } from './archive-page.ts';
import { createPage } from './create-page.ts';
import { getPage } from './get-page.ts';
import { listPages } from './list-pages.ts';
import { getPublicPage, listPublicPages } from './public-pages.ts';
import {
  type CreatePageInput,
  cmsPageSchema,
  createPageInputSchema,
  pageListQuerySchema,
  publicCmsPageSchema,
  publicPageListQuerySchema,
  updatePageInputSchema,
} from './schemas.ts';
import { updatePage } from './update-page.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-11-24T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 12 });
});
afterAll(async () => {
  await handle.close();
});

const shop = () => createTestShop(handle.db, clock, 'pag');
const create = (owner: TestShop, slug: string, extra: Partial<CreatePageInput> = {}) => {
  clock.advance(1000);
  return createPage(handle.db, owner.ctx(), {
    title: `Title ${slug}`,
    slug,
    content: `<p>${slug}</p>`,
    status: 'PUBLISHED',
    ...extra,
  });
};

describe('createPage', () => {
  it('stores sanitised content, stamps publishedAt for a PUBLISHED page and audits it', async () => {
    const owner = await shop();
    clock.advance(1000);
    const at = clock.now().toISOString();

    const page = await createPage(handle.db, owner.ctx(), {
      title: ' About us ',
      slug: 'about',
      content: '<h1 onclick="x()">About</h1><script>alert(1)</script><a href="javascript:alert(1)">x</a>',
      status: 'PUBLISHED',
      excerpt: 'Who we are',
    });

    expect(cmsPageSchema.parse(page)).toEqual(page);
    expect(page).toEqual({
      id: expect.stringMatching(/^pag_/),
      slug: 'about',
      title: ' About us ',
      content: '<h1>About</h1><a>x</a>',
      excerpt: 'Who we are',
      status: 'PUBLISHED',
      archivedAt: null,
      publishedAt: at,
      createdAt: at,
      updatedAt: at,
    });
    const stored = await handle.db
      .selectFrom('pages')
      .select('content')
      .where('id', '=', page.id)
      .executeTakeFirst();
    expect(stored?.content).toBe('<h1>About</h1><a>x</a>');
    const audit = await auditRows(handle.db, owner.id, 'page.');
    expect(audit.map((row) => [row.action, row.target_type, row.target_id])).toEqual([
      ['page.created', 'page', page.id],
    ]);
  });

  it('leaves publishedAt null for a DRAFT', async () => {
    const owner = await shop();
    expect((await create(owner, 'draft', { status: 'DRAFT' })).publishedAt).toBeNull();
  });

  it('bounds every field at the edge', () => {
    const parse = (body: unknown) => createPageInputSchema.safeParse(body);
    const base = { title: 'T', slug: 'about', content: '<p>x</p>', status: 'DRAFT' };
    expect(parse(base).success).toBe(true);
    expect(parse({ ...base, title: 'x'.repeat(201) }).success).toBe(false);
    expect(parse({ ...base, title: ' ' }).success).toBe(false);
    expect(parse({ ...base, content: 'x'.repeat(200_000) }).success).toBe(true);
    expect(parse({ ...base, content: 'x'.repeat(200_001) }).success).toBe(false);
    expect(parse({ ...base, excerpt: 'x'.repeat(1000) }).success).toBe(true);
    expect(parse({ ...base, excerpt: 'x'.repeat(1001) }).success).toBe(false);
    expect(parse({ ...base, status: 'ARCHIVED' }).success).toBe(false);
    expect(parse({ ...base, slug: 'About' }).success).toBe(false);
    expect(parse({ ...base, html: '' }).success).toBe(false);
    const { content: _content, ...withoutContent } = base;
    expect(parse(withoutContent).success).toBe(false);
    expect(updatePageInputSchema.safeParse({ id: 'pag_1', excerpt: null }).success).toBe(true);
    expect(updatePageInputSchema.safeParse({ id: 'pag_1', body: 'x' }).success).toBe(false);
  });

  it('answers SLUG_TAKEN for a slug the organization has, archived or not; other tenants may use it', async () => {
    const owner = await shop();
    const other = await shop();
    const first = await create(owner, 'faq');
    await archivePage(handle.db, owner.ctx(), first.id);

    expect(await rejectionOf(create(owner, 'faq'))).toMatchObject({ code: 'SLUG_TAKEN' });
    expect((await create(other, 'faq')).slug).toBe('faq');
  });

  it('gives exactly one page to concurrent creates of one slug', async () => {
    const owner = await shop();

    const results = await outcomes(Array.from({ length: 8 }, () => create(owner, 'race')));

    expect(results.filter((result) => result === 'ok')).toHaveLength(1);
    expect(results.filter((result) => result === 'SLUG_TAKEN')).toHaveLength(7);
    expect(await auditRows(handle.db, owner.id, 'page.created')).toHaveLength(1);
  });
});

describe('updatePage', () => {
  it('changes the fields sent, sanitises content, audits changed names and stamps publishedAt once', async () => {
    const owner = await shop();
    const page = await create(owner, 'terms', { status: 'DRAFT', excerpt: 'Old' });
    clock.advance(1000);
    const publishedAt = clock.now().toISOString();

    const published = await updatePage(handle.db, owner.ctx(), page.id, {
      status: 'PUBLISHED',
      content: '<p>New</p><iframe src="https://evil.example"></iframe>',
      excerpt: null,
      title: page.title,
    });
    expect(published).toMatchObject({
      status: 'PUBLISHED',
      content: '<p>New</p>',
      excerpt: null,
      publishedAt,
      updatedAt: publishedAt,
    });

    clock.advance(1000);
    await updatePage(handle.db, owner.ctx(), page.id, { status: 'DRAFT' });
    clock.advance(1000);
    const republished = await updatePage(handle.db, owner.ctx(), page.id, { status: 'PUBLISHED' });
    expect(republished.publishedAt).toBe(publishedAt);

    const audit = await auditRows(handle.db, owner.id, 'page.updated');
    expect(audit.map((row) => row.metadata)).toEqual([
      { fields: ['content', 'status', 'excerpt'] },
      { fields: ['status'] },
      { fields: ['status'] },
    ]);
  });

  it('writes nothing when the sanitised content equals the stored one', async () => {
    const owner = await shop();
    const page = await create(owner, 'same', { content: '<p>same</p>' });

    const unchanged = await updatePage(handle.db, owner.ctx(), page.id, {
      content: '<p>same</p><script>x()</script>',
      slug: 'same',
    });

    expect(unchanged).toEqual(page);
    expect(await auditRows(handle.db, owner.id, 'page.updated')).toHaveLength(0);
  });

  it('answers SLUG_TAKEN and 404 for another tenant', async () => {
    const owner = await shop();
    const other = await shop();
    await create(owner, 'one');
    const two = await create(owner, 'two');

    expect(await rejectionOf(updatePage(handle.db, owner.ctx(), two.id, { slug: 'one' }))).toMatchObject({
      code: 'SLUG_TAKEN',
    });
    expect(await rejectionOf(updatePage(handle.db, other.ctx(), two.id, { title: 'Mine' }))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    expect(await rejectionOf(getPage(handle.db, other.id, two.id))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
  });
});

describe('archivePage and restorePage', () => {
  it('archive hides the page; restore brings it back as DRAFT; both idempotent, audited once each', async () => {
    const owner = await shop();
    const page = await create(owner, 'story');
    clock.advance(1000);
    const archivedAt = clock.now().toISOString();

    const archived = await archivePage(handle.db, owner.ctx(), page.id);
    clock.advance(1000);
    expect(archived).toMatchObject({ status: 'PUBLISHED', archivedAt });
    expect(await archivePage(handle.db, owner.ctx(), page.id)).toEqual(archived);
    expect(await rejectionOf(getPublicPage(handle.db, owner.id, 'story'))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });

    const restored = await restorePage(handle.db, owner.ctx(), page.id);
    expect(restored).toMatchObject({ status: 'DRAFT', archivedAt: null, publishedAt: page.publishedAt });
    expect(await restorePage(handle.db, owner.ctx(), page.id)).toEqual(restored);
    expect(await rejectionOf(getPublicPage(handle.db, owner.id, 'story'))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });

    const audit = await auditRows(handle.db, owner.id, 'page.');
    expect(audit.map((row) => row.action)).toEqual(['page.created', 'page.archived', 'page.restored']);
  });

  it('restore of a live PUBLISHED page leaves it PUBLISHED', async () => {
    const owner = await shop();
    const page = await create(owner, 'live');
    expect(await restorePage(handle.db, owner.ctx(), page.id)).toEqual(page);
  });
});

describe('listPages', () => {
  it('lists newest first without content, pages by cursor, hides archived unless asked, filters status', async () => {
    const owner = await shop();
    const other = await shop();
    const oldest = await create(owner, 'oldest');
    const draft = await create(owner, 'draft', { status: 'DRAFT' });
    const archived = await create(owner, 'archived');
    const newest = await create(owner, 'newest');
    await archivePage(handle.db, owner.ctx(), archived.id);
    await create(other, 'foreign');
    const query = (input: Record<string, unknown>) => pageListQuerySchema.parse(input);

    const all = await listPages(handle.db, owner.id, query({}));
    expect(all.data.map((row) => row.slug)).toEqual(['newest', 'draft', 'oldest']);
    expect(Object.keys(all.data[0]!)).not.toContain('content');

    const first = await listPages(handle.db, owner.id, query({ limit: '2' }));
    expect(first.nextCursor).toBe(draft.id);
    const second = await listPages(handle.db, owner.id, query({ limit: '2', cursor: first.nextCursor }));
    expect(second.data.map((row) => row.id)).toEqual([oldest.id]);
    expect(second.nextCursor).toBeNull();

    const withArchived = await listPages(handle.db, owner.id, query({ archived: 'true' }));
    expect(withArchived.data.map((row) => row.id)).toEqual([newest.id, archived.id, draft.id, oldest.id]);
    const drafts = await listPages(handle.db, owner.id, query({ status: 'DRAFT' }));
    expect(drafts.data.map((row) => row.id)).toEqual([draft.id]);
    expect(await rejectionOf(listPages(handle.db, other.id, query({ cursor: newest.id })))).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});

describe('public pages', () => {
  it('serve PUBLISHED, non-archived pages of the tenant only; DRAFT, archived, unknown and foreign are 404', async () => {
    const owner = await shop();
    const other = await shop();
    const published = await create(owner, 'published', { excerpt: 'Short' });
    await create(owner, 'draft', { status: 'DRAFT' });
    const archived = await create(owner, 'archived');
    await archivePage(handle.db, owner.ctx(), archived.id);
    await create(other, 'theirs');

    const page = await getPublicPage(handle.db, owner.id, 'published');
    expect(publicCmsPageSchema.parse(page)).toEqual(page);
    expect(page).toEqual({
      id: published.id,
      slug: 'published',
      title: 'Title published',
      content: '<p>published</p>',
      excerpt: 'Short',
      publishedAt: published.publishedAt,
      createdAt: published.createdAt,
      updatedAt: published.updatedAt,
    });
    for (const slug of ['draft', 'archived', 'nope', 'theirs']) {
      expect(await rejectionOf(getPublicPage(handle.db, owner.id, slug)), slug).toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      });
    }

    const list = await listPublicPages(handle.db, owner.id, publicPageListQuerySchema.parse({}));
    expect(list).toEqual([
      {
        id: published.id,
        slug: 'published',
        title: 'Title published',
        excerpt: 'Short',
        publishedAt: published.publishedAt,
        createdAt: published.createdAt,
        updatedAt: published.updatedAt,
      },
    ]);
  });

  it('pages exactly through rows whose createdAt is finer than a millisecond', async () => {
    const owner = await shop();
    for (const micros of ['000001', '000002', '000003']) {
      await handle.db
        .insertInto('pages')
        .values({
          organization_id: owner.id,
          id: `pag_micro_${micros}`,
          slug: `micro-${micros}`,
          title: 'Micro',
          content: '',
          status: 'PUBLISHED',
          created_at: `2026-11-24T09:00:00.${micros}Z`,
          updated_at: `2026-11-24T09:00:00.${micros}Z`,
        })
        .execute();
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let round = 0; round < 5; round++) {
      const page = await listPublicPages(
        handle.db,
        owner.id,
        publicPageListQuerySchema.parse({ limit: 1, ...(cursor ? { cursor } : {}) }),
      );
      if (page.length === 0) break;
      seen.push(page[0]!.id);
      cursor = page[0]!.id;
    }
    expect(seen).toEqual(['pag_micro_000003', 'pag_micro_000002', 'pag_micro_000001']);
    const merchantFirst = await listPages(handle.db, owner.id, pageListQuerySchema.parse({ limit: 1 }));
    const merchantSecond = await listPages(
      handle.db,
      owner.id,
      pageListQuerySchema.parse({ limit: 2, cursor: merchantFirst.nextCursor }),
    );
    expect([...merchantFirst.data, ...merchantSecond.data].map((row) => row.id)).toEqual(seen);
  });

  it('lists newest first and pages by id', async () => {
    const owner = await shop();
    const [a, b, c] = [await create(owner, 'a'), await create(owner, 'b'), await create(owner, 'c')];
    const query = (input: Record<string, unknown>) => publicPageListQuerySchema.parse(input);

    expect((await listPublicPages(handle.db, owner.id, query({}))).map((row) => row.id)).toEqual([
      c.id,
      b.id,
      a.id,
    ]);
    const first = await listPublicPages(handle.db, owner.id, query({ limit: '2' }));
    expect(first.map((row) => row.id)).toEqual([c.id, b.id]);
    const second = await listPublicPages(handle.db, owner.id, query({ limit: '2', cursor: b.id }));
    expect(second.map((row) => row.id)).toEqual([a.id]);
  });
});
