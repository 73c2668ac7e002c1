import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, type Harness, json, PLATFORM_TOKEN } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const create = (body: unknown, token = PLATFORM_TOKEN) =>
  h.app.request('/api/v1/platform/organizations', json(body, { authorization: `Bearer ${token}` }));

describe('POST /platform/organizations', () => {
  it('creates the organization with a pending Owner (201)', async () => {
    const response = await create({
      slug: 'acme',
      name: 'Acme',
      owner: { email: 'Boss@Acme.test', name: 'Boss' },
    });
    expect(response.status).toBe(201);
    const organization = (await response.json()) as { id: string; slug: string; name: string };
    expect(organization).toEqual({ id: expect.stringMatching(/^org_/), slug: 'acme', name: 'Acme' });
    const owner = await h.database.db
      .selectFrom('memberships')
      .selectAll()
      .where('organization_id', '=', organization.id)
      .executeTakeFirstOrThrow();
    expect(owner).toMatchObject({
      email: 'boss@acme.test',
      role: 'Owner',
      status: 'PENDING',
      user_id: null,
      invited_name: 'Boss',
    });
    const audit = await h.database.db
      .selectFrom('audit_logs')
      .select(['action', 'target_id'])
      .where('organization_id', '=', organization.id)
      .execute();
    expect(audit).toEqual([{ action: 'organization.created', target_id: organization.id }]);
  });

  it('answers 409 SLUG_TAKEN for a duplicate slug, also under concurrent creates', async () => {
    expect((await create({ slug: 'acme', name: 'Again', owner: { email: 'x@acme.test' } })).status).toBe(409);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        create({ slug: 'raced', name: `R${index}`, owner: { email: `o${index}@r.test` } }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect((await errorOf(response)).code).toBe('SLUG_TAKEN');
    }
  });

  it('validates the body', async () => {
    for (const body of [
      { slug: 'Bad Slug', name: 'x', owner: { email: 'a@b.test' } },
      { slug: 'ok-slug', name: '', owner: { email: 'a@b.test' } },
      { slug: 'ok-slug', name: 'x', owner: { email: 'nope' } },
      { slug: 'ok-slug', name: 'x', owner: { email: 'a@b.test' }, plan: 'gold' },
      { slug: 'ok-slug', name: 'x' },
    ]) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(response)).code).toBe('VALIDATION_FAILED');
    }
  });

  it('answers 401 for a wrong platform token', async () => {
    const response = await create(
      { slug: 'nope', name: 'x', owner: { email: 'a@b.test' } },
      'wrong-token-wrong-token-wrong',
    );
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe('UNAUTHENTICATED');
  });

  it('binds the pending Owner when a token with that email first signs in', async () => {
    const token = await h.token({ email: 'boss@acme.test', name: 'Boss Person' });
    const response = await h.app.request('/api/v1/merchant/auth/memberships', {
      headers: { authorization: `Bearer ${token}`, 'x-organization-slug': 'acme' },
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as {
      data: { role: string; status: string; userId: string | null }[];
    };
    expect(data).toEqual([
      expect.objectContaining({ role: 'Owner', status: 'ACTIVE', userId: expect.stringMatching(/^usr_/) }),
    ]);
  });
});

describe('without PLATFORM_ADMIN_TOKEN', () => {
  it('answers 404 on every platform route', async () => {
    const closed = await createHarness({ env: { PLATFORM_ADMIN_TOKEN: '' } });
    try {
      const response = await closed.app.request(
        '/api/v1/platform/organizations',
        json(
          { slug: 'x1', name: 'x', owner: { email: 'a@b.test' } },
          { authorization: `Bearer ${PLATFORM_TOKEN}` },
        ),
      );
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('RESOURCE_NOT_FOUND');
    } finally {
      await closed.close();
    }
  });
});
