export { type ApiContext, type ApiDeps, createApiContext, type RequestObservations } from './context.ts';
export { type Download, downloadSchema, isDownload } from './download.ts';
export { toAppError } from './errors.ts';
export { hostedAppOrigin, httpOrigin } from './hosted-origin.ts';
export { buildOpenApiDocument, routeErrorCodes } from './openapi.ts';
export {
  answerKeys,
  type CachePurger,
  noopCachePurger,
  type PublicCacheKind,
  type PublicCacheRule,
  type PurgeScope,
  purgeKeys,
  REPURGE_DELAY_MS,
  type RepurgingCachePurger,
  repurgingCachePurger,
} from './public-cache.ts';
export { listRestRoutes, type RestRoute } from './rest-routes.ts';
export { type AppRouter, appRouter } from './root.ts';
export { merchantProcedureFor, merchantProcedureWith, publicProcedure, router } from './trpc.ts';
