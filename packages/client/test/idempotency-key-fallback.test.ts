/**
 * Idempotency keys where `crypto.randomUUID` does not exist (only secure contexts have it: an
 * http:// page or some webviews do not). Replaces the global `crypto`, so it runs isolated.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCommerceClient, newIdempotencyKey } from '../dist/index.js';

describe('idempotency keys without crypto.randomUUID (an http:// page, a webview)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('makes 32 hex characters from crypto.getRandomValues', async () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: real.getRandomValues.bind(real) });
    expect(typeof globalThis.crypto.randomUUID).toBe('undefined');
    const keys = [newIdempotencyKey(), newIdempotencyKey()];
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[0]).not.toBe(keys[1]);
    const keys2: (string | null)[] = [];
    const client = createCommerceClient({
      baseUrl: 'http://api.test/api/v1',
      fetch: async (request) => {
        keys2.push(request.headers.get('x-idempotency-key'));
        return new Response('{}', { status: 201 });
      },
    });
    await client.POST('/merchant/bookings/{id}/cancel', {
      params: { path: { id: 'bkg_1' } },
      body: {} as never,
    });
    expect(keys2).toHaveLength(1);
    expect(keys2[0]).toMatch(/^[0-9a-f]{32}$/);
  });
});
