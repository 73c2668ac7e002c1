import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization } from '../../test/organizations.ts';
import { captureSignup } from './capture-signup.ts';
import { captureSignupInputSchema } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-07-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 12 });
});
afterAll(async () => {
  await handle.close();
});

const body = (input: unknown) => captureSignupInputSchema.parse(input);
const rowsOf = (email: string) =>
  handle.db.selectFrom('signup_requests').selectAll().where('email', '=', email).execute();

describe('captureSignupInputSchema', () => {
  const accepts = (input: unknown) => captureSignupInputSchema.safeParse(input).success;

  it('needs an email of at most 320 characters and bounds every other field', () => {
    expect(accepts({ email: 'ann@shop.test' })).toBe(true);
    expect(
      accepts({
        email: 'ann@shop.test',
        name: 'Ann',
        companyName: 'Ann’s Shop',
        website: 'https://ann.example/about',
        message: 'x'.repeat(2000),
      }),
    ).toBe(true);
    expect(body({ email: 'ann@shop.test', name: '  Ann  ' }).name).toBe('Ann');
    for (const bad of [
      {},
      { email: 'not-an-email' },
      { email: `${'a'.repeat(310)}@shop.example` },
      { email: 'ann@shop.test', name: 'x'.repeat(201) },
      { email: 'ann@shop.test', name: '   ' },
      { email: 'ann@shop.test', companyName: 'x'.repeat(201) },
      { email: 'ann@shop.test', website: 'javascript:alert(1)' },
      { email: 'ann@shop.test', website: 'ftp://ann.example' },
      { email: 'ann@shop.test', website: 'ann.example' },
      { email: 'ann@shop.test', website: `https://ann.example/${'a'.repeat(2048)}` },
      { email: 'ann@shop.test', message: 'x'.repeat(2001) },
      { email: 'ann@shop.test', plan: 'gold' },
      { email: 'ann@shop.test', status: 'APPROVED' },
    ]) {
      expect(accepts(bad), JSON.stringify(bad).slice(0, 80)).toBe(false);
    }
  });
});

describe('captureSignup', () => {
  it('stores a new request lowercased with its storefront, and answers { ok: true }', async () => {
    const storefront = await insertOrganization(handle.db, 'signup-source');
    const answer = await captureSignup(
      handle.db,
      { sourceOrganizationId: storefront, at: clock.now() },
      body({ email: 'New.Person@Example.COM', name: 'New Person', website: 'https://new.example' }),
    );

    expect(answer).toEqual({ ok: true });
    expect(await rowsOf('new.person@example.com')).toEqual([
      {
        id: expect.stringMatching(/^sgn_[0-9A-Z]{26}$/),
        email: 'new.person@example.com',
        name: 'New Person',
        company_name: null,
        website: 'https://new.example',
        message: null,
        source_organization_id: storefront,
        created_at: clock.now(),
        updated_at: clock.now(),
      },
    ]);
  });

  it('updates the one row on a repeat in any case, keeping what the repeat leaves out, with the same answer', async () => {
    const first = await insertOrganization(handle.db, 'signup-first');
    const second = await insertOrganization(handle.db, 'signup-second');
    const createdAt = clock.now();
    const before = await captureSignup(
      handle.db,
      { sourceOrganizationId: first, at: createdAt },
      body({ email: 'repeat@example.com', name: 'Rita', companyName: 'Rita Co', message: 'Hello' }),
    );
    const [original] = await rowsOf('repeat@example.com');
    clock.advance(60_000);

    const after = await captureSignup(
      handle.db,
      { sourceOrganizationId: second, at: clock.now() },
      body({ email: 'REPEAT@example.com', companyName: 'Rita & Sons', website: 'https://rita.example' }),
    );

    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
    expect(await rowsOf('repeat@example.com')).toEqual([
      {
        id: original!.id,
        email: 'repeat@example.com',
        name: 'Rita',
        company_name: 'Rita & Sons',
        website: 'https://rita.example',
        message: 'Hello',
        source_organization_id: second,
        created_at: createdAt,
        updated_at: clock.now(),
      },
    ]);
  });

  it(`keeps one row under 12 concurrent requests for one email (${testDatabaseKind})`, async () => {
    const storefront = await insertOrganization(handle.db, 'signup-race');
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        captureSignup(
          handle.db,
          { sourceOrganizationId: storefront, at: clock.now() },
          body({ email: index % 2 === 0 ? 'race@example.com' : 'Race@Example.com', name: `Racer ${index}` }),
        ),
      ),
    );
    for (const answer of answers) expect(answer).toEqual({ ok: true });
    const rows = await rowsOf('race@example.com');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.name).toMatch(/^Racer \d+$/);
  });
});
