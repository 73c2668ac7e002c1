import { buildOpenApiDocument, listRestRoutes, type RestRoute } from '@commerce/api';
import type { AnyRouter } from '@trpc/server';
import type { OpenAPIObject } from 'trpc-to-openapi';
import { INPUT_RULES } from './input-guard.ts';
import { CACHE_NOTE } from './public-cache.ts';
import { SANDBOX_NOTE } from './sandbox.ts';
import { paymentWebhookOpenApiPaths } from './webhooks.ts';

/**
 * The document `/api/v1/openapi.json` serves: the router's routes, the payment webhook (a native
 * route) and the rules the gateway applies to every route. `scripts/openapi-document.ts` writes the
 * same document to a file for the linter and the typed client's generated types.
 */
export function gatewayOpenApiDocument(
  router: AnyRouter,
  version: string,
  routes: RestRoute[] = listRestRoutes(router),
): OpenAPIObject {
  return buildOpenApiDocument(router, routes, {
    version,
    extraPaths: paymentWebhookOpenApiPaths,
    notes: [INPUT_RULES, SANDBOX_NOTE, CACHE_NOTE],
  });
}
