import { appRouter, listRestRoutes, routeErrorCodes } from '@commerce/api';
import { ERROR_TABLE } from '@commerce/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

interface Operation {
  security?: Record<string, string[]>[];
  responses: Record<
    string,
    { content?: { 'application/json'?: { schema?: unknown } }; headers?: Record<string, unknown> }
  >;
}

describe('GET /api/v1/openapi.json', () => {
  it('is OpenAPI 3.0 with the contract security schemes and every route with its statuses and error codes', async () => {
    const response = await h.app.request('/api/v1/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      components: {
        securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }>;
      };
      paths: Record<string, Record<string, Operation>>;
    };
    expect(document.openapi).toMatch(/^3\.0\.\d$/);
    expect(document.components.securitySchemes.BearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.OrganizationSlug).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'x-organization-slug',
    });

    const routes = listRestRoutes(appRouter);
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      const success = String(route.meta.successStatus ?? 200);
      expect(Object.keys(operation!.responses)).toContain(success);
      for (const code of routeErrorCodes(route)) {
        const documented = JSON.stringify(operation!.responses[String(ERROR_TABLE[code].status)]);
        expect(documented, `${route.method} ${route.path} ${code}`).toContain(code);
      }
    }
    const create = document.paths['/platform/organizations']?.post;
    expect(Object.keys(create!.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '404', '409', '413', '500']),
    );
    expect(create!.responses['200']).toBeUndefined();
    const publicRead = document.paths['/public/organization']?.get;
    expect(publicRead!.security).toEqual([{ OrganizationSlug: [] }]);
    expect(publicRead!.responses['429']?.headers?.['Retry-After']).toBeDefined();
    // An unknown collection's items are a 404, documented with the route.
    const collectionItems = document.paths['/public/collections/{slug}/items']?.get as Operation & {
      description?: string;
    };
    expect(JSON.stringify(collectionItems.responses['404'])).toContain('RESOURCE_NOT_FOUND');
    expect(collectionItems.description).toContain('`404 RESOURCE_NOT_FOUND`');
    expect(document.paths['/merchant/auth/memberships']?.get?.security).toEqual([
      { BearerAuth: [], OrganizationSlug: [] },
    ]);
  });
});

describe('GET /api/v1/docs', () => {
  it('serves the interactive reference with its script from this server', async () => {
    const page = await h.app.request('/api/v1/docs');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/api/v1/openapi.json');
    expect(html).toContain('/api/v1/docs/scalar.js');
    const script = await h.app.request('/api/v1/docs/scalar.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});
