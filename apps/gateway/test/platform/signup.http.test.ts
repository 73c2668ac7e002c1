import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, expectError, type Harness, PLATFORM_TOKEN } from '../support/harness.ts';

let h: Harness;
let storefront: { id: string; slug: string };
let client = 0;

beforeAll(async () => {
  // Each test sends from its own client address, so that the signup budget of one does not spill into another.
  h = await createHarness({ env: { TRUST_PROXY: 'true' } });
  storefront = await h.provision('signup-store', 'owner@signup-store.test');
  await h.provision('signup-other', 'owner@signup-other.test');
});
afterAll(async () => {
  await h.close();
});

const newClient = () => {
  client += 1;
  return `198.51.100.${client}`;
};

const signup = (
  body: unknown,
  options: { slug?: string | null; ip?: string; raw?: string; contentType?: string } = {},
) => {
  const headers: Record<string, string> = {
    'content-type': options.contentType ?? 'application/json',
    'x-forwarded-for': options.ip ?? newClient(),
  };
  if (options.slug !== null) headers['x-organization-slug'] = options.slug ?? 'signup-store';
  return h.app.request('/api/v1/public/signup', {
    method: 'POST',
    headers,
    body: options.raw ?? JSON.stringify(body),
  });
};

const listSignups = (query = '', token: string | null = PLATFORM_TOKEN, harness: Harness = h) =>
  harness.app.request(`/api/v1/platform/signups${query}`, {
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });

const rowsOf = (email: string) =>
  h.database.db.selectFrom('signup_requests').selectAll().where('email', '=', email).execute();

describe('POST /public/signup', () => {
  it('answers 201 with the same neutral bytes for a new email and for repeats, keeping one record', async () => {
    const ip = newClient();
    const first = await signup(
      { email: 'Founder@Example.com', name: 'Fay', companyName: 'Fay Goods' },
      { ip },
    );
    h.clock.advance(1000);
    const repeat = await signup({ email: 'founder@example.com', message: 'Still keen' }, { ip });
    const other = await signup({ email: 'someone.else@example.com' }, { ip });

    expect(first.status).toBe(201);
    expect(repeat.status).toBe(201);
    expect(other.status).toBe(201);
    const bodies = [await first.text(), await repeat.text(), await other.text()];
    expect(bodies).toEqual(['{"ok":true}', '{"ok":true}', '{"ok":true}']);
    expect(repeat.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(repeat.headers.get('location')).toBeNull();

    const rows = await rowsOf('founder@example.com');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: 'Fay',
      company_name: 'Fay Goods',
      message: 'Still keen',
      source_organization_id: storefront.id,
    });
    expect(rows[0]!.updated_at.getTime() - rows[0]!.created_at.getTime()).toBe(1000);
  });

  it('keeps one record under concurrent repeats of one email', async () => {
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        signup({ email: index % 2 ? 'Rush@Example.com' : 'rush@example.com', name: `R${index}` }),
      ),
    );
    const texts = await Promise.all(responses.map((response) => response.text()));
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(texts)).toEqual(new Set(['{"ok":true}']));
    expect(await rowsOf('rush@example.com')).toHaveLength(1);
  });

  it('answers 400 VALIDATION_FAILED for invalid payloads and stores nothing', async () => {
    const cases: [unknown, string][] = [
      [{}, 'email'],
      [{ email: 'not-an-email' }, 'email'],
      [{ email: `${'a'.repeat(320)}@example.com` }, 'email'],
      [{ email: 'bad-name@example.com', name: 'x'.repeat(201) }, 'name'],
      [{ email: 'bad-company@example.com', companyName: 'x'.repeat(201) }, 'companyName'],
      [{ email: 'bad-site@example.com', website: 'javascript:alert(1)' }, 'website'],
      [{ email: 'bad-message@example.com', message: 'x'.repeat(2001) }, 'message'],
      [{ email: 'extra@example.com', plan: 'enterprise' }, ''],
    ];
    for (const [body, path] of cases) {
      const error = await expectError(await signup(body), 400, 'VALIDATION_FAILED');
      expect(
        error.details?.issues?.map((issue) => issue.path),
        JSON.stringify(body).slice(0, 60),
      ).toContain(path);
    }
    await expectError(await signup(null, { raw: '{"email": ' }), 400, 'VALIDATION_FAILED');
    await expectError(await signup(null, { raw: '["a@example.com"]' }), 400, 'VALIDATION_FAILED');
    for (const email of ['bad-name@example.com', 'bad-site@example.com', 'extra@example.com']) {
      expect(await rowsOf(email)).toEqual([]);
    }
  });

  it('needs the storefront tenant header and a known organization', async () => {
    await expectError(
      await signup({ email: 'no-tenant@example.com' }, { slug: null }),
      400,
      'TENANT_REQUIRED',
    );
    await expectError(
      await signup({ email: 'no-tenant@example.com' }, { slug: 'no-such-store' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expect(await rowsOf('no-tenant@example.com')).toEqual([]);
  });

  it('answers 429 with Retry-After after 5 requests from one client to one storefront in 10 minutes', async () => {
    const ip = newClient();
    for (let index = 0; index < 5; index++) {
      expect((await signup({ email: `burst${index}@example.com` }, { ip })).status).toBe(201);
    }
    const limited = await signup({ email: 'burst5@example.com' }, { ip });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(600);
    expect((await errorOf(limited)).code).toBe('RATE_LIMIT_EXCEEDED');
    expect(await rowsOf('burst5@example.com')).toEqual([]);

    // The budget is per storefront and client.
    expect((await signup({ email: 'burst5@example.com' }, { ip, slug: 'signup-other' })).status).toBe(201);
    expect((await signup({ email: 'burst6@example.com' })).status).toBe(201);
  });
});

interface SignupPage {
  data: {
    id: string;
    email: string;
    name: string | null;
    companyName: string | null;
    website: string | null;
    message: string | null;
    sourceOrganization: { id: string; slug: string } | null;
    createdAt: string;
    updatedAt: string;
  }[];
  nextCursor: string | null;
}

describe('GET /platform/signups', () => {
  it('lists captured requests newest first, with their storefront, in pages', async () => {
    h.clock.advance(60_000);
    const listedAt = h.clock.now().toISOString();
    expect(
      (
        await signup({
          email: 'listed@example.com',
          name: 'Lee',
          companyName: 'Lee Ltd',
          website: 'https://lee.example',
          message: 'Hello',
        })
      ).status,
    ).toBe(201);
    h.clock.advance(1000);
    expect((await signup({ email: 'newest@example.com' }, { slug: 'signup-other' })).status).toBe(201);

    const response = await listSignups('?limit=2');
    expect(response.status).toBe(200);
    const page = (await response.json()) as SignupPage;
    expect(page.data.map((signup) => signup.email)).toEqual(['newest@example.com', 'listed@example.com']);
    expect(page.data[0]!.sourceOrganization).toEqual({
      id: expect.stringMatching(/^org_/),
      slug: 'signup-other',
    });
    expect(page.data[1]).toEqual({
      id: expect.stringMatching(/^sgn_/),
      email: 'listed@example.com',
      name: 'Lee',
      companyName: 'Lee Ltd',
      website: 'https://lee.example',
      message: 'Hello',
      sourceOrganization: { id: storefront.id, slug: 'signup-store' },
      createdAt: listedAt,
      updatedAt: listedAt,
    });
    expect(page.nextCursor).toBe(page.data[1]!.id);

    const next = (await (await listSignups(`?limit=200&cursor=${page.nextCursor}`)).json()) as SignupPage;
    expect(next.data.map((signup) => signup.email)).not.toContain('listed@example.com');
    expect(next.data.map((signup) => signup.email)).toContain('founder@example.com');
    const times = next.data.map((signup) => signup.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('answers 400 for a bad limit or an unknown cursor', async () => {
    await expectError(await listSignups('?limit=0'), 400, 'VALIDATION_FAILED');
    await expectError(await listSignups('?cursor=sgn_unknown'), 400, 'VALIDATION_FAILED');
  });

  it('answers 401 without the platform token or with a wrong one, and never to a merchant token', async () => {
    await expectError(await listSignups('', null), 401, 'UNAUTHENTICATED');
    await expectError(await listSignups('', 'wrong-token-wrong-token-wrong-token'), 401, 'UNAUTHENTICATED');
    const merchant = await h.token({ email: 'owner@signup-store.test' });
    await expectError(await listSignups('', merchant), 401, 'UNAUTHENTICATED');
  });

  it('answers 404 on the route while PLATFORM_ADMIN_TOKEN is unset, whatever the credential', async () => {
    const closed = await createHarness({ env: { PLATFORM_ADMIN_TOKEN: '' } });
    try {
      for (const token of [PLATFORM_TOKEN, null]) {
        await expectError(await listSignups('', token, closed), 404, 'RESOURCE_NOT_FOUND');
      }
    } finally {
      await closed.close();
    }
  });
});
