import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { ApiMeta } from './meta.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** One REST route of the versioned contract, read from a procedure's OpenAPI meta. */
export interface RestRoute {
  method: HttpMethod;
  /** The OpenAPI form, `/merchant/items/{id}`. */
  path: string;
  /** The same path for a router, `/merchant/items/:id`. */
  routerPath: string;
  /** The procedure's dotted tRPC path, `merchant.items.get`. */
  procedurePath: string;
  type: 'query' | 'mutation';
  meta: ApiMeta;
}

/**
 * Every procedure that has OpenAPI meta, static segments before parameters so
 * that `/items/reorder` is matched before `/items/{id}` whatever the router's order.
 */
export function listRestRoutes(router: AnyRouter): RestRoute[] {
  const routes: RestRoute[] = [];
  const procedures = router._def.procedures as Record<string, AnyProcedure>;
  for (const [procedurePath, procedure] of Object.entries(procedures)) {
    const meta = procedure._def.meta as ApiMeta | undefined;
    const openapi = meta?.openapi;
    if (!openapi || openapi.enabled === false) continue;
    const type = procedure._def.type;
    if (type === 'subscription') continue;
    routes.push({
      method: openapi.method,
      path: openapi.path,
      routerPath: openapi.path.replace(/\{([^}]+)\}/g, ':$1'),
      procedurePath,
      type,
      meta,
    });
  }
  const rank = (path: string) =>
    path
      .split('/')
      .map((segment) => (segment.startsWith('{') ? '1' : '0'))
      .join('');
  return routes.sort((a, b) => rank(a.path).localeCompare(rank(b.path)) || a.path.localeCompare(b.path));
}
