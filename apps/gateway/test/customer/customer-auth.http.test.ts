import { SCHEMA_COLUMNS } from '@commerce/db';
import { testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';

let h: Harness;
let shop: { id: string; slug: string };
let other: { id: string; slug: string };

beforeAll(async () => {
  h = await createHarness({ env: { TRUST_PROXY: 'true', HOSTED_CHECKOUT_URL: 'https://checkout.example' } });
  shop = await h.provision('auth-shop', 'owner@auth-shop.test');
  other = await h.provision('auth-other', 'owner@auth-other.test');
});
afterAll(async () => {
  await h.close();
});

let clientCounter = 0;
/** A fresh client address, so that tests do not share the per-client budget. */
const newClient = () => `10.0.${Math.floor(++clientCounter / 250)}.${clientCounter % 250}`;

function post(
  path: string,
  body: unknown,
  options: { slug?: string; client?: string; headers?: Record<string, string> } = {},
) {
  return h.app.request(`/api/v1${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-organization-slug': options.slug ?? shop.slug,
      'x-forwarded-for': options.client ?? newClient(),
      ...options.headers,
    },
    body: JSON.stringify(body),
  });
}

interface SignInEmail {
  to: string;
  text: string;
  subject: string;
  link: string;
  token: string | undefined;
  code: string;
}

/** The latest CUSTOMER_AUTH email to `email` in the organization. */
async function latestEmail(email: string, organizationId = shop.id): Promise<SignInEmail> {
  const rows = await h.database.db
    .selectFrom('outbox')
    .select(['payload', 'metadata'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const row = rows.find(
    (candidate) =>
      (candidate.metadata as { templateType?: string }).templateType === 'CUSTOMER_AUTH' &&
      (candidate.payload as { to: string }).to === email,
  );
  if (!row) throw new Error(`no CUSTOMER_AUTH email to ${email}`);
  const payload = row.payload as { to: string; text: string; subject: string };
  const link = /https:\/\/checkout\.example\/account\/verify\S*/.exec(payload.text)?.[0] ?? '';
  return {
    ...payload,
    link,
    token: /token=(l1_[A-Za-z0-9_-]{43})/.exec(link)?.[1],
    code: /\b(\d{6})\b/.exec(payload.text)![1]!,
  };
}

const countRows = async (
  table: 'customer_sign_in_challenges' | 'outbox' | 'customers',
  organizationId = shop.id,
) =>
  Number(
    (
      await h.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('count'))
        .where('organization_id', '=', organizationId)
        .executeTakeFirstOrThrow()
    ).count,
  );

/** Everything of a response a client could compare, minus what differs on every request. */
async function observable(response: Response) {
  const headers = [...response.headers.entries()].filter(([name]) => name !== 'x-request-id');
  return { status: response.status, headers, body: await response.text() };
}

async function signIn(email: string): Promise<{ sessionToken: string; customerId: string }> {
  expect((await post('/public/customer/auth/request-otp', { email })).status).toBe(200);
  const { code } = await latestEmail(email.toLowerCase());
  const response = await post('/public/customer/auth/verify', { email, code });
  expect(response.status).toBe(200);
  return (await response.json()) as { sessionToken: string; customerId: string };
}

describe('request-link and request-otp: neutral', () => {
  it('answers a known and an unknown email identically, and does the same work for both', async () => {
    await signIn('known@example.com');
    for (const path of ['/public/customer/auth/request-link', '/public/customer/auth/request-otp']) {
      const challengesBefore = await countRows('customer_sign_in_challenges');
      const outboxBefore = await countRows('outbox');
      const known = await observable(await post(path, { email: 'known@example.com' }));
      const afterKnown = [await countRows('customer_sign_in_challenges'), await countRows('outbox')];
      const unknown = await observable(await post(path, { email: 'nobody-here@example.com' }));
      const afterUnknown = [await countRows('customer_sign_in_challenges'), await countRows('outbox')];
      expect(known).toEqual(unknown);
      expect(known.status).toBe(200);
      expect(JSON.parse(known.body)).toEqual({ accepted: true });
      expect(afterKnown).toEqual([challengesBefore + 1, outboxBefore + 1]);
      expect(afterUnknown).toEqual([challengesBefore + 2, outboxBefore + 2]);
    }
  });

  it('takes about the same time for known and unknown emails (loose check, never a timed assertion)', async () => {
    await signIn('timing@example.com');
    const time = async (email: string) => {
      const started = performance.now();
      await post('/public/customer/auth/request-otp', { email });
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < 4; round += 1) {
      known.push(await time('timing@example.com'.replace('@', `+${round}@`)));
      unknown.push(await time(`ghost${round}@example.com`));
    }
    // Informational only: both go through one code path; shared CI machines make timings noisy.
    expect(known).toHaveLength(4);
    expect(unknown).toHaveLength(4);
  });

  it('emails a link with a fallback code, or a code alone, through the outbox', async () => {
    await post('/public/customer/auth/request-link', { email: 'Link.Me@Example.com ' });
    const linkEmail = await latestEmail('link.me@example.com');
    expect(linkEmail.link).toMatch(
      /^https:\/\/checkout\.example\/account\/verify\?token=l1_[A-Za-z0-9_-]{43}$/,
    );
    expect(linkEmail.code).toMatch(/^\d{6}$/);
    expect(linkEmail.text).toContain('15 minutes');

    await post('/public/customer/auth/request-otp', { email: 'code.me@example.com' });
    const codeEmail = await latestEmail('code.me@example.com');
    expect(codeEmail.token).toBeUndefined();
    expect(codeEmail.code).toMatch(/^\d{6}$/);
  });

  it('refuses a body without a valid email with 400', async () => {
    await expectError(
      await post('/public/customer/auth/request-otp', { email: 'nope' }),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(await post('/public/customer/auth/request-otp', {}), 400, 'VALIDATION_FAILED');
  });
});

describe('verify', () => {
  it('signs in with the link token: 200 { sessionToken, expiresAt, customerId } and the session cookie', async () => {
    await post('/public/customer/auth/request-link', { email: 'linker@example.com' });
    const { token } = await latestEmail('linker@example.com');
    const at = h.clock.now();
    const response = await post('/public/customer/auth/verify', { token });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { sessionToken: string; expiresAt: string; customerId: string };
    expect(Object.keys(body).sort()).toEqual(['customerId', 'expiresAt', 'sessionToken']);
    expect(body.sessionToken).toMatch(/^s1_[A-Za-z0-9_-]{43}$/);
    expect(body.customerId).toMatch(/^cus_/);
    expect(new Date(body.expiresAt).getTime()).toBe(at.getTime() + 30 * 24 * 3600 * 1000);
    expect(response.headers.get('set-cookie')).toBe(
      `__Host-session=${body.sessionToken}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=2592000; Expires=${new Date(body.expiresAt).toUTCString()}`,
    );
    const profile = await h.app.request('/api/v1/customer/account/profile', {
      headers: { 'x-organization-slug': shop.slug, authorization: `Bearer ${body.sessionToken}` },
    });
    expect(await profile.json()).toMatchObject({
      id: body.customerId,
      email: 'linker@example.com',
      emailVerified: true,
    });
  });

  it('signs in with the fallback code of a link email', async () => {
    await post('/public/customer/auth/request-link', { email: 'fallback@example.com' });
    const { code } = await latestEmail('fallback@example.com');
    expect((await post('/public/customer/auth/verify', { email: 'fallback@example.com', code })).status).toBe(
      200,
    );
  });

  it('creates the customer once: a later sign-in, in any letter case, is the same customer', async () => {
    const before = await countRows('customers');
    const first = await signIn('Repeat@Example.com');
    const second = await signIn('repeat@example.com');
    expect(second.customerId).toBe(first.customerId);
    expect(await countRows('customers')).toBe(before + 1);
  });

  it('uses a link or a code once', async () => {
    await post('/public/customer/auth/request-link', { email: 'once@example.com' });
    const { token, code } = await latestEmail('once@example.com');
    expect((await post('/public/customer/auth/verify', { token })).status).toBe(200);
    await expectError(await post('/public/customer/auth/verify', { token }), 401, 'VERIFICATION_FAILED');
    // The same email's code went with the sign-in.
    await expectError(
      await post('/public/customer/auth/verify', { email: 'once@example.com', code }),
      401,
      'VERIFICATION_FAILED',
    );

    await post('/public/customer/auth/request-otp', { email: 'once-code@example.com' });
    const otp = await latestEmail('once-code@example.com');
    expect(
      (await post('/public/customer/auth/verify', { email: 'once-code@example.com', code: otp.code })).status,
    ).toBe(200);
    await expectError(
      await post('/public/customer/auth/verify', { email: 'once-code@example.com', code: otp.code }),
      401,
      'VERIFICATION_FAILED',
    );
  });

  it('expires codes and links after 15 minutes', async () => {
    await post('/public/customer/auth/request-link', { email: 'late@example.com' });
    const { token, code } = await latestEmail('late@example.com');
    h.clock.advance(15 * 60 * 1000);
    await expectError(await post('/public/customer/auth/verify', { token }), 401, 'VERIFICATION_FAILED');
    await expectError(
      await post('/public/customer/auth/verify', { email: 'late@example.com', code }),
      401,
      'VERIFICATION_FAILED',
    );
  });

  it('still accepts a code just before it expires', async () => {
    await post('/public/customer/auth/request-otp', { email: 'justintime@example.com' });
    const { code } = await latestEmail('justintime@example.com');
    h.clock.advance(15 * 60 * 1000 - 1000);
    expect(
      (await post('/public/customer/auth/verify', { email: 'justintime@example.com', code })).status,
    ).toBe(200);
  });

  it('voids a code after 5 wrong attempts, even for the right code afterwards', async () => {
    await post('/public/customer/auth/request-otp', { email: 'guesser@example.com' });
    const { code } = await latestEmail('guesser@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await expectError(
        await post('/public/customer/auth/verify', { email: 'guesser@example.com', code: wrong }),
        401,
        'VERIFICATION_FAILED',
      );
    }
    await expectError(
      await post('/public/customer/auth/verify', { email: 'guesser@example.com', code }),
      401,
      'VERIFICATION_FAILED',
    );
  });

  it('accepts the right code after 4 wrong attempts', async () => {
    await post('/public/customer/auth/request-otp', { email: 'almost@example.com' });
    const { code } = await latestEmail('almost@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await post('/public/customer/auth/verify', { email: 'almost@example.com', code: wrong });
    }
    expect((await post('/public/customer/auth/verify', { email: 'almost@example.com', code })).status).toBe(
      200,
    );
  });

  it('answers every failure with one neutral body', async () => {
    await post('/public/customer/auth/request-link', { email: 'neutral@example.com' });
    const { token, code } = await latestEmail('neutral@example.com');
    const failures = [
      { token: 'garbage' },
      { token: `l1_${'x'.repeat(43)}` },
      { email: 'neutral@example.com', code: code === '999999' ? '999998' : '999999' },
      { email: 'someone-else@example.com', code },
      { email: 'neutral@example.com', code: 'abc' },
    ];
    const bodies = new Set<string>();
    for (const body of failures) {
      const response = await post('/public/customer/auth/verify', body);
      const error = await expectError(response, 401, 'VERIFICATION_FAILED');
      bodies.add(JSON.stringify({ ...error, requestId: undefined }));
    }
    // Another store's link is unknown here.
    const foreign = await post('/public/customer/auth/verify', { token }, { slug: other.slug });
    const error = await expectError(foreign, 401, 'VERIFICATION_FAILED');
    bodies.add(JSON.stringify({ ...error, requestId: undefined }));
    expect(bodies.size).toBe(1);
    // The link still works in its own store.
    expect((await post('/public/customer/auth/verify', { token })).status).toBe(200);
  });

  it('refuses a body that is neither { token } nor { email, code } with 400', async () => {
    await expectError(await post('/public/customer/auth/verify', {}), 400, 'VALIDATION_FAILED');
    await expectError(
      await post('/public/customer/auth/verify', { token: 'x', email: 'a@example.com', code: '123456' }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('keeps tokens hashed at rest: no raw session token, link token or code in the database', async () => {
    await post('/public/customer/auth/request-link', { email: 'vault@example.com' });
    const { token, code } = await latestEmail('vault@example.com');
    const response = await post('/public/customer/auth/verify', { token });
    const { sessionToken } = (await response.json()) as { sessionToken: string };

    const dumps: Record<string, string> = {};
    for (const table of Object.keys(SCHEMA_COLUMNS) as (keyof typeof SCHEMA_COLUMNS)[]) {
      dumps[table] = JSON.stringify(await h.database.db.selectFrom(table).selectAll().execute());
    }
    const everything = Object.values(dumps).join('\n');
    expect(everything).not.toContain(sessionToken);
    expect(everything).not.toContain(sessionToken.slice(3));
    // The one raw copy of a link or code allowed is the queued email itself.
    const withoutOutbox = Object.entries(dumps)
      .filter(([table]) => table !== 'outbox')
      .map(([, dump]) => dump)
      .join('\n');
    expect(withoutOutbox).not.toContain(token!);
    expect(withoutOutbox).not.toContain(token!.slice(3));
    expect(dumps.customer_sign_in_challenges).not.toContain(code);
    expect(dumps.customer_sign_in_challenges).toContain('"link_token_hash"');
  });

  it.skipIf(testDatabaseKind !== 'postgres')('lets one of two concurrent uses of a link win', async () => {
    await post('/public/customer/auth/request-link', { email: 'race@example.com' });
    const { token } = await latestEmail('race@example.com');
    const responses = await Promise.all([1, 2, 3].map(() => post('/public/customer/auth/verify', { token })));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 401, 401]);
    const sessions = await h.database.db
      .selectFrom('customer_sessions')
      .innerJoin('customers', 'customers.id', 'customer_sessions.customer_id')
      .where('customers.email', '=', 'race@example.com')
      .select('customer_sessions.id')
      .execute();
    expect(sessions).toHaveLength(1);
  });

  it.skipIf(testDatabaseKind !== 'postgres')(
    'counts concurrent wrong codes: no more than 5 guesses per code',
    async () => {
      await post('/public/customer/auth/request-otp', { email: 'burst@example.com' });
      const { code } = await latestEmail('burst@example.com');
      const wrong = code === '000000' ? '111111' : '000000';
      await Promise.all(
        [1, 2, 3, 4, 5].map(() =>
          post('/public/customer/auth/verify', { email: 'burst@example.com', code: wrong }),
        ),
      );
      await expectError(
        await post('/public/customer/auth/verify', { email: 'burst@example.com', code }),
        401,
        'VERIFICATION_FAILED',
      );
    },
  );
});

describe('rate limits', () => {
  it('limits requests per email (5 per window), known or unknown, then answers 429 with Retry-After', async () => {
    await signIn('limited-known@example.com');
    for (const email of ['limited-known@example.com', 'limited-unknown@example.com']) {
      // signIn spent one request of the known email; spend up to 5 on each.
      const already = email.startsWith('limited-known') ? 1 : 0;
      for (let index = already; index < 5; index += 1) {
        expect((await post('/public/customer/auth/request-link', { email })).status).toBe(200);
      }
      const refused = await post('/public/customer/auth/request-otp', { email: email.toUpperCase() });
      await expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    }
    // Another store counts its own.
    expect(
      (
        await post(
          '/public/customer/auth/request-otp',
          { email: 'limited-unknown@example.com' },
          { slug: other.slug },
        )
      ).status,
    ).toBe(200);
  });

  it('limits requests per client address (30 per window)', async () => {
    const client = newClient();
    for (let index = 0; index < 30; index += 1) {
      expect(
        (await post('/public/customer/auth/request-otp', { email: `spray${index}@example.com` }, { client }))
          .status,
      ).toBe(200);
    }
    await expectError(
      await post('/public/customer/auth/request-otp', { email: 'spray-last@example.com' }, { client }),
      429,
      'RATE_LIMIT_EXCEEDED',
    );
    // A refused client did not spend the email's budget.
    expect(
      (await post('/public/customer/auth/request-otp', { email: 'spray-last@example.com' })).status,
    ).toBe(200);
  });

  it('limits verify attempts per email (10 per window) across client addresses', async () => {
    await post('/public/customer/auth/request-otp', { email: 'brute@example.com' });
    for (let index = 0; index < 10; index += 1) {
      await expectError(
        await post('/public/customer/auth/verify', {
          email: 'brute@example.com',
          code: String(100000 + index),
        }),
        401,
        'VERIFICATION_FAILED',
      );
    }
    const refused = await post('/public/customer/auth/verify', {
      email: 'brute@example.com',
      code: '123456',
    });
    await expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
  });

  it('limits verify attempts per client address (30 per window)', async () => {
    const client = newClient();
    for (let index = 0; index < 30; index += 1) {
      await expectError(
        await post('/public/customer/auth/verify', { token: `bad-${index}` }, { client }),
        401,
        'VERIFICATION_FAILED',
      );
    }
    await expectError(
      await post('/public/customer/auth/verify', { token: 'bad' }, { client }),
      429,
      'RATE_LIMIT_EXCEEDED',
    );
  });
});

describe('POST /trpc/public.customerAuth.verify (first-party apps)', () => {
  it('sets the session cookie as REST does', async () => {
    const email = 'trpc-cookie@x.test';
    expect((await post('/public/customer/auth/request-otp', { email })).status).toBe(200);
    const { code } = await latestEmail(email);
    const response = await h.app.request('/trpc/public.customerAuth.verify', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-organization-slug': shop.slug,
        'x-forwarded-for': newClient(),
      },
      body: JSON.stringify({ email, code }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(
      /^__Host-session=s1_[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; Secure; SameSite=Lax/,
    );
  });
});

describe('audit of authentication events', () => {
  interface AuditRecord {
    actorUserId: string | null;
    action: string;
    targetType: string;
    targetId: string | null;
    metadata: Record<string, unknown>;
  }

  /** The shop's audit records about `targetId`, oldest first, as its Owner reads them. */
  async function merchantAudit(targetId: string): Promise<AuditRecord[]> {
    const token = await h.token({ email: 'owner@auth-shop.test' });
    const response = await h.app.request(`/api/v1/merchant/audit-logs?targetId=${targetId}`, {
      headers: { authorization: `Bearer ${token}`, 'x-organization-slug': shop.slug },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: AuditRecord[] }).data.reverse();
  }

  const asCustomer = (sessionToken: string, method: string, path: string, body?: unknown) =>
    h.app.request(`/api/v1${path}`, {
      method,
      headers: {
        'x-organization-slug': shop.slug,
        authorization: `Bearer ${sessionToken}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  it('records sign-in, email-change requests and confirmations and logout with the customer as actor, without codes, links or tokens', async () => {
    const secrets: string[] = [];
    const first = await signIn('audited@example.com');
    secrets.push(first.sessionToken, (await latestEmail('audited@example.com')).code);
    const customerId = first.customerId;
    h.clock.advance(1000);
    await post('/public/customer/auth/request-link', { email: 'audited@example.com' });
    const link = await latestEmail('audited@example.com');
    secrets.push(link.token!, link.code);
    const linked = (await (await post('/public/customer/auth/verify', { token: link.token })).json()) as {
      sessionToken: string;
    };
    secrets.push(linked.sessionToken);

    h.clock.advance(1000);
    const profile = (body: unknown) =>
      asCustomer(linked.sessionToken, 'PATCH', '/customer/account/profile', body);
    expect((await profile({ email: 'audited-new@example.com' })).status).toBe(200);
    h.clock.advance(1000);
    expect((await profile({ email: 'audited@example.com' })).status).toBe(200);
    h.clock.advance(1000);
    expect((await profile({ email: 'audited-new@example.com' })).status).toBe(200);
    const change = await latestEmail('audited-new@example.com');
    secrets.push(change.token!, change.code);
    h.clock.advance(1000);
    const moved = await post('/public/customer/auth/verify', { token: change.token });
    expect(moved.status).toBe(200);
    const movedSession = ((await moved.json()) as { sessionToken: string }).sessionToken;
    secrets.push(movedSession);
    h.clock.advance(1000);
    expect((await asCustomer(movedSession, 'POST', '/customer/auth/logout', {})).status).toBe(200);
    // A second logout of the revoked session is refused and records nothing.
    expect((await asCustomer(movedSession, 'POST', '/customer/auth/logout', {})).status).toBe(401);

    const records = await merchantAudit(customerId);
    expect(records.map(({ action, metadata }) => ({ action, metadata }))).toEqual([
      { action: 'customer.signed_in', metadata: { method: 'CODE' } },
      { action: 'customer.signed_in', metadata: { method: 'LINK' } },
      { action: 'customer.email_change_requested', metadata: { pendingEmail: 'audited-new@example.com' } },
      { action: 'customer.email_change_withdrawn', metadata: { pendingEmail: 'audited-new@example.com' } },
      { action: 'customer.email_change_requested', metadata: { pendingEmail: 'audited-new@example.com' } },
      { action: 'customer.email_changed', metadata: { previousEmail: 'audited@example.com' } },
      { action: 'customer.signed_in', metadata: { method: 'LINK' } },
      { action: 'customer.signed_out', metadata: {} },
    ]);
    for (const record of records) {
      expect(record).toMatchObject({ actorUserId: customerId, targetType: 'customer', targetId: customerId });
    }
    const stored = JSON.stringify(
      await h.database.db
        .selectFrom('audit_logs')
        .selectAll()
        .where('organization_id', '=', shop.id)
        .execute(),
    );
    for (const secret of secrets) expect(stored).not.toContain(secret);
    expect(stored).not.toContain('/account/verify');

    // The export shows them too, with the actor's email at the time.
    const token = await h.token({ email: 'owner@auth-shop.test' });
    const csv = await (
      await h.app.request(`/api/v1/merchant/audit-logs/export?targetId=${customerId}`, {
        headers: { authorization: `Bearer ${token}`, 'x-organization-slug': shop.slug },
      })
    ).text();
    expect(csv).toContain(`${customerId},audited@example.com,customer.signed_in,customer,${customerId}`);
    expect(csv).toContain(`${customerId},audited-new@example.com,customer.signed_out,customer,${customerId}`);
  });

  it('records the lockout once, when a wrong code voids the codes, for known and unknown emails', async () => {
    const known = await signIn('locked-out@example.com');
    for (const email of ['locked-out@example.com', 'never-signed-in@example.com']) {
      await post('/public/customer/auth/request-otp', { email });
      const { code } = await latestEmail(email);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let attempt = 0; attempt < 6; attempt += 1) {
        await post('/public/customer/auth/verify', { email, code: wrong });
      }
    }
    const lockouts = await h.database.db
      .selectFrom('audit_logs')
      .select(['actor_user_id', 'actor_email', 'target_id', 'metadata'])
      .where('organization_id', '=', shop.id)
      .where('action', '=', 'customer.sign_in_locked')
      .where('actor_email', 'in', ['locked-out@example.com', 'never-signed-in@example.com'])
      .orderBy('id')
      .execute();
    expect(lockouts).toEqual([
      {
        actor_user_id: known.customerId,
        actor_email: 'locked-out@example.com',
        target_id: known.customerId,
        metadata: { voidedCodes: 1 },
      },
      {
        actor_user_id: null,
        actor_email: 'never-signed-in@example.com',
        target_id: null,
        metadata: { voidedCodes: 1 },
      },
    ]);
    expect((await merchantAudit(known.customerId)).map((record) => record.action)).toEqual([
      'customer.signed_in',
      'customer.sign_in_locked',
    ]);
  });
});

describe('audit of merchant identity binding', () => {
  it('records membership.activated when a grant binds an existing user at once', async () => {
    const ownerToken = await h.token({ email: 'owner@auth-shop.test' });
    const merchant = (method: string, path: string, body?: unknown) =>
      h.app.request(`/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${ownerToken}`,
          'x-organization-slug': shop.slug,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    // A user the identity provider vouched for signs in (in another organization's context) first.
    const userToken = await h.token({ email: 'existing-user@auth-shop.test' });
    const session = await h.app.request('/api/v1/merchant/auth/session', {
      headers: { authorization: `Bearer ${userToken}` },
    });
    const userId = ((await session.json()) as { user: { id: string } }).user.id;

    const granted = await merchant('POST', '/merchant/auth/memberships', {
      email: 'existing-user@auth-shop.test',
      role: 'Admin',
    });
    expect(granted.status).toBe(201);
    const membership = (await granted.json()) as { id: string; status: string };
    expect(membership.status).toBe('ACTIVE');

    const audit = await merchant('GET', `/merchant/audit-logs?targetId=${membership.id}`);
    const records = (
      (await audit.json()) as { data: { action: string; actorUserId: string; metadata: unknown }[] }
    ).data;
    expect(records.map(({ action, actorUserId, metadata }) => ({ action, actorUserId, metadata }))).toEqual([
      expect.objectContaining({ action: 'membership.granted' }),
      { action: 'membership.activated', actorUserId: userId, metadata: { via: 'grant' } },
    ]);
  });
});
