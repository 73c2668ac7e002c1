import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listRestRoutes } from './rest-routes.ts';
import { appRouter } from './root.ts';
import { publicProcedure, router } from './trpc.ts';

const noop = publicProcedure.input(z.object({})).output(z.object({}));

describe('listRestRoutes', () => {
  it('puts static segments before parameters whatever the router order', () => {
    const routes = listRestRoutes(
      router({
        byId: noop.meta({ openapi: { method: 'PATCH', path: '/items/{id}' } }).mutation(() => ({})),
        reorder: noop.meta({ openapi: { method: 'PATCH', path: '/items/reorder' } }).mutation(() => ({})),
        bySlug: noop.meta({ openapi: { method: 'GET', path: '/items/by-slug/{slug}' } }).query(() => ({})),
        hidden: noop.meta({ openapi: { method: 'GET', path: '/hidden', enabled: false } }).query(() => ({})),
        internal: noop.query(() => ({})),
      }),
    );
    expect(routes.map((route) => `${route.method} ${route.path} ${route.routerPath}`)).toEqual([
      'PATCH /items/reorder /items/reorder',
      'GET /items/by-slug/{slug} /items/by-slug/:slug',
      'PATCH /items/{id} /items/:id',
    ]);
  });

  it('gives every application route a unique method and path', () => {
    const keys = listRestRoutes(appRouter).map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain('GET /merchant/auth/session');
  });
});
