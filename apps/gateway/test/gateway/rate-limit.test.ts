import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, type Harness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ env: { RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '3' } });
  await h.provision('limited', 'owner@limited.test');
  await h.provision('other', 'owner@other.test');
});
afterAll(async () => {
  await h.close();
});

const read = (slug: string) =>
  h.app.request('/api/v1/public/organization', { headers: { 'x-organization-slug': slug } });

describe('public read rate limit', () => {
  it('answers 429 RATE_LIMIT_EXCEEDED with a positive whole-second Retry-After once the tenant budget is spent', async () => {
    for (let index = 0; index < 3; index++) expect((await read('limited')).status).toBe(200);
    const limited = await read('limited');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await errorOf(limited)).code).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('keys the budget per tenant', async () => {
    expect((await read('other')).status).toBe(200);
  });

  it('admits no more than the budget under concurrent requests', async () => {
    const fresh = await createHarness({ env: { RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '5' } });
    try {
      await fresh.provision('burst', 'owner@burst.test');
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          fresh.app.request('/api/v1/public/organization', { headers: { 'x-organization-slug': 'burst' } }),
        ),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    } finally {
      await fresh.close();
    }
  });
});
