import { mintDevToken } from '@commerce/auth';
import { DEVELOPMENT_JWT_SECRET, loadConfig } from '@commerce/core';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, type Harness } from '../support/harness.ts';

let h: Harness;
const config = loadConfig({ NODE_ENV: 'test' });
const secret = new TextEncoder().encode(DEVELOPMENT_JWT_SECRET);

beforeAll(async () => {
  h = await createHarness();
  await h.provision('alpha', 'owner@alpha.test');
  await h.provision('beta', 'owner@beta.test');
});
afterAll(async () => {
  await h.close();
});

const session = (token: string) =>
  h.app.request('/api/v1/merchant/auth/session', { headers: { authorization: `Bearer ${token}` } });

function claims(overrides: Record<string, unknown> = {}) {
  const now = Math.floor(h.clock.now().getTime() / 1000);
  return {
    sub: 'idp|jwt-case',
    email: 'case@example.com',
    iss: config.merchantJwt.issuer,
    aud: config.merchantJwt.audience,
    iat: now,
    exp: now + 600,
    ...overrides,
  };
}

const sign = (payload: Record<string, unknown>, key: Uint8Array = secret) =>
  new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(key);

describe('merchant JWT verification', () => {
  it('accepts a valid token', async () => {
    const response = await session(await sign(claims()));
    expect(response.status).toBe(200);
  });

  const failures: [string, () => Promise<string>][] = [
    ['a bad signature', () => sign(claims(), new TextEncoder().encode('another-secret-another-secret-0000'))],
    ['an expired token', () => sign(claims({ exp: Math.floor(h.clock.now().getTime() / 1000) - 1 }))],
    ['a wrong issuer', () => sign(claims({ iss: 'https://evil.test' }))],
    ['a wrong audience', () => sign(claims({ aud: 'someone-else' }))],
    ['a missing sub', () => sign(claims({ sub: undefined }))],
    ['a missing email', () => sign(claims({ email: undefined }))],
    ['a malformed email', () => sign(claims({ email: 'not-an-email' }))],
    ['no expiry', () => sign(claims({ exp: undefined }))],
    ['garbage', async () => 'not.a.jwt'],
    [
      'an unsigned token',
      async () => {
        const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
        return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims())}.`;
      },
    ],
  ];
  for (const [name, makeToken] of failures) {
    it(`answers 401 UNAUTHENTICATED for ${name}`, async () => {
      const response = await session(await makeToken());
      expect(response.status).toBe(401);
      expect((await errorOf(response)).code).toBe('UNAUTHENTICATED');
    });
  }

  it('answers 401 without a bearer credential', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer' }] as Record<
      string,
      string
    >[]) {
      const response = await h.app.request('/api/v1/merchant/auth/session', { headers });
      expect(response.status).toBe(401);
      expect((await errorOf(response)).code).toBe('UNAUTHENTICATED');
    }
  });

  it('expires a token when the clock passes its exp', async () => {
    const token = await mintDevToken({
      secret: DEVELOPMENT_JWT_SECRET,
      issuer: config.merchantJwt.issuer,
      audience: config.merchantJwt.audience,
      subject: 'idp|expiring',
      email: 'expiring@example.com',
      expiresInSeconds: 60,
      now: h.clock.now(),
    });
    expect((await session(token)).status).toBe(200);
    h.clock.advance(61_000);
    expect((await session(token)).status).toBe(401);
  });
});

describe('binding invitations', () => {
  const membershipsOf = async (token: string) => {
    const response = await session(token);
    expect(response.status).toBe(200);
    return ((await response.json()) as { memberships: { role: string; organization: { slug: string } }[] })
      .memberships;
  };

  it.each([
    ['omits email_verified', 'unclaimed', {}, 200],
    ['says email_verified: false', 'unverified', { email_verified: false }, 200],
    // A claim of the wrong type makes the token malformed (401); the seat stays pending all the same.
    ['says email_verified as a string', 'stringly', { email_verified: 'true' }, 401],
  ])('does not bind a pending membership with a token that %s', async (_case, slug, claim, status) => {
    await h.provision(slug, `owner@${slug}.test`);
    const identity = { sub: `idp|${slug}`, email: `owner@${slug}.test` };
    const unverified = await sign(claims({ ...identity, ...claim }));
    expect((await session(unverified)).status).toBe(status);
    if (status === 200) expect(await membershipsOf(unverified)).toEqual([]);

    const verified = await sign(claims({ ...identity, email_verified: true }));
    expect(await membershipsOf(verified)).toEqual([
      expect.objectContaining({ role: 'Owner', organization: expect.objectContaining({ slug }) }),
    ]);
  });
});

describe('tenant isolation', () => {
  it('binds the pending Owner at first sign-in and lists only that organization', async () => {
    const token = await h.token({ email: 'owner@alpha.test' });
    const response = await session(token);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      memberships: { role: string; status: string; organization: { slug: string } }[];
    };
    expect(body.memberships).toEqual([
      expect.objectContaining({
        role: 'Owner',
        status: 'ACTIVE',
        organization: expect.objectContaining({ slug: 'alpha' }),
      }),
    ]);
  });

  it('gives a member of A 403 FORBIDDEN on B', async () => {
    const token = await h.token({ email: 'owner@alpha.test' });
    const own = await h.app.request('/api/v1/merchant/auth/memberships', {
      headers: { authorization: `Bearer ${token}`, 'x-organization-slug': 'alpha' },
    });
    expect(own.status).toBe(200);
    const foreign = await h.app.request('/api/v1/merchant/auth/memberships', {
      headers: { authorization: `Bearer ${token}`, 'x-organization-slug': 'beta' },
    });
    expect(foreign.status).toBe(403);
    expect((await errorOf(foreign)).code).toBe('FORBIDDEN');
  });

  it('keeps the rows of A invisible from B, even for a member of both', async () => {
    const both = await h.token({ email: 'owner@beta.test' });
    // owner@beta.test is also invited into alpha (directly, as a second Owner would be).
    await h.database.db
      .insertInto('memberships')
      .values({
        organization_id: (
          await h.database.db
            .selectFrom('organizations')
            .select('id')
            .where('slug', '=', 'alpha')
            .executeTakeFirstOrThrow()
        ).id,
        id: 'mem_01TESTALPHAFORBETAOWNER00',
        email: 'owner@beta.test',
        role: 'Staff',
        status: 'PENDING',
        permissions: '[]',
      })
      .execute();
    await session(both);
    const read = async (slug: string) => {
      const response = await h.app.request('/api/v1/merchant/auth/memberships', {
        headers: { authorization: `Bearer ${both}`, 'x-organization-slug': slug },
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { data: { email: string }[] }).data.map((row) => row.email).sort();
    };
    expect(await read('beta')).toEqual(['owner@beta.test']);
    expect(await read('alpha')).toEqual(['owner@alpha.test', 'owner@beta.test']);
  });

  it('answers 404 for an unknown organization even with a valid token', async () => {
    const token = await h.token({ email: 'owner@alpha.test' });
    const response = await h.app.request('/api/v1/merchant/auth/memberships', {
      headers: { authorization: `Bearer ${token}`, 'x-organization-slug': 'gamma' },
    });
    expect(response.status).toBe(404);
  });
});

describe('merchant profile', () => {
  it('updates the own name and rejects unknown fields', async () => {
    const token = await h.token({ email: 'owner@alpha.test', name: 'From Token' });
    const patch = (body: unknown) =>
      h.app.request('/api/v1/merchant/auth/profile', {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const ok = await patch({ name: '  Ada Owner ' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ email: 'owner@alpha.test', name: 'Ada Owner' });
    expect((await patch({ name: '' })).status).toBe(400);
    expect((await patch({ name: 'x', email: 'hijack@example.com' })).status).toBe(400);
    const after = (await (await session(token)).json()) as { user: { name: string } };
    expect(after.user.name).toBe('Ada Owner');
  });
});
