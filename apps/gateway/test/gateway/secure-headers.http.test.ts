import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await h.provision('secure', 'owner@secure.test');
});
afterAll(async () => {
  await h.close();
});

const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

describe('security headers', () => {
  it.each([
    [
      'a JSON answer',
      () => h.app.request('/api/v1/public/organization', { headers: { 'x-organization-slug': 'secure' } }),
      200,
    ],
    ['an error', () => h.app.request('/api/v1/public/organization'), 400],
    ['an unknown route', () => h.app.request('/nowhere'), 404],
    ['the OpenAPI document', () => h.app.request('/api/v1/openapi.json'), 200],
    ['/trpc', () => h.app.request('/trpc/nothing.here'), 404],
  ])('sends nosniff and a deny-all policy on %s', async (_case, request, status) => {
    const response = await request();
    expect(response.status).toBe(status);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe(API_POLICY);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('gives the docs page a policy that runs its own scripts only, the inline one by hash', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const page = await h.app.request('/api/v1/docs');
      expect(page.status).toBe(200);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      const policy = page.headers.get('content-security-policy') ?? '';
      const html = await page.text();
      const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
        (match) => match[1] ?? '',
      );
      expect(inline.length).toBeGreaterThan(0);
      expect(inline.join('')).toContain('createApiReference');
      const scriptSrc = policy.split('; ').find((directive) => directive.startsWith('script-src '));
      expect(scriptSrc?.split(' ').sort()).toEqual(
        [
          'script-src',
          "'self'",
          ...inline.map((script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`),
        ].sort(),
      );
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("connect-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('unsafe-eval');
      expect(html).toContain('<script src="/api/v1/docs/scalar.js">');
    }
  });
});
