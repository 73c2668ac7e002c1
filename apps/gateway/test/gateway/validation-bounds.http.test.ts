import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, type Harness, json } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/** A validation error is bounded however many fields a hostile body gets wrong (docs/errors.md). */
let h: Harness;
let shop: RoleFixture;
beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'bounds-shop');
});
afterAll(async () => {
  await h.close();
});

const unknownKeys = (count: number) => {
  const body: Record<string, string> = { email: 'ada@example.com' };
  for (let index = 0; index < count; index++) body[`key${index}`] = 'x';
  return body;
};

describe('VALIDATION_FAILED with many issues', () => {
  it('names at most 100 of 60,000 unknown keys, then how many more, in a bounded answer', async () => {
    const response = await h.app.request(
      '/api/v1/public/signup',
      json(unknownKeys(60_000), { 'x-organization-slug': shop.slug }),
    );
    expect(response.status).toBe(400);
    const text = await response.clone().text();
    // It was 709 KB, every key named.
    expect(text.length).toBeLessThan(5_000);
    const error = await errorOf(response);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details?.issues).toHaveLength(1);
    const [issue] = error.details!.issues!;
    expect(issue!.path).toBe('');
    expect(issue!.message).toMatch(/^Unrecognized keys: "key0", "key1", .*"key99" and 59900 more$/);
    expect(issue!.message).not.toContain('"key100"');
  });

  it('bounds the unknown keys over /trpc the same way', async () => {
    const response = await h.app.request(
      '/trpc/public.signup.create',
      json(unknownKeys(60_000), { 'x-organization-slug': shop.slug }),
    );
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(text.length).toBeLessThan(5_000);
    expect(text).toContain('and 59900 more');
  });

  it('lists the first 100 issues and says how many more', async () => {
    // Every line wrong in two fields (an empty object, then an unknown key on each): well over 100 issues.
    const lines = Array.from({ length: 100 }, (_, index) => ({ [`extra${index}`]: true }));
    const response = await h.app.request(
      '/api/v1/public/checkout/sessions',
      json({ lines }, { 'x-organization-slug': shop.slug }),
    );
    expect(response.status).toBe(400);
    const error = (await errorOf(response)) as {
      details?: { issues?: unknown[]; omittedIssueCount?: number };
    };
    expect(error.details?.issues).toHaveLength(100);
    expect(error.details?.omittedIssueCount).toBeGreaterThan(0);
  });

  it('answers a few issues as before, without a count', async () => {
    const response = await h.app.request(
      '/api/v1/public/signup',
      json(unknownKeys(2), { 'x-organization-slug': shop.slug }),
    );
    const error = (await errorOf(response)) as { details?: Record<string, unknown> };
    expect(error.details).toEqual({ issues: [{ path: '', message: 'Unrecognized keys: "key0", "key1"' }] });
  });
});
