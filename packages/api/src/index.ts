export * from './context.ts';
export * from './download.ts';
export { databaseUnavailable, toAppError } from './errors.ts';
export { hostedAppOrigin, httpOrigin } from './hosted-origin.ts';
export type { ApiMeta, AuthKind } from './meta.ts';
export * from './openapi.ts';
export * from './rest-routes.ts';
export * from './root.ts';
export {
  createCallerFactory,
  merchantProcedure,
  merchantProcedureFor,
  merchantProcedureWith,
  merchantUserProcedure,
  platformProcedure,
  publicProcedure,
  router,
  tenantProcedure,
} from './trpc.ts';
