import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { mountDocs } from '../../src/docs.ts';
import type { GatewayEnv } from '../../src/env.ts';

// The reference's first render fails once (a transient fault), then renders as usual.
vi.mock('@scalar/hono-api-reference', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@scalar/hono-api-reference')>();
  return {
    ...actual,
    Scalar: ((options: Parameters<typeof actual.Scalar>[0]) => {
      const render = actual.Scalar(options);
      let calls = 0;
      return (async (...args: Parameters<typeof render>) => {
        calls += 1;
        if (calls === 1) throw new Error('transient render failure');
        return render(...args);
      }) as typeof render;
    }) as typeof actual.Scalar,
  };
});

describe('docs page', () => {
  it('renders again after a failed render instead of failing until a restart', async () => {
    const app = new Hono<GatewayEnv>();
    app.onError((_error, c) => c.text('render failed', 500));
    mountDocs(app, { openapi: '3.1.0' });
    const failed = await app.request('/api/v1/docs');
    expect(failed.status).toBe(500);
    const page = await app.request('/api/v1/docs');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('createApiReference');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self' 'sha256-");
  });
});
