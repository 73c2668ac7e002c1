/**
 * The browser-safe part of @commerce/core (`@commerce/core/schemas`): zod schemas and pure helpers,
 * nothing that reaches node built-ins or the database. The hosted app imports it, as do the other
 * packages' own browser-safe schema modules.
 */
export { booleanQuerySchema } from './boolean-query.ts';
export { canonicalJson } from './canonical-json.ts';
export { currencyExponent, formatMoney } from './currency.ts';
export {
  cursorSchema,
  DEFAULT_PAGE_LIMIT,
  limitSchema,
  MAX_PAGE_LIMIT,
  type Page,
  type PageQuery,
  pageQuerySchema,
  pageSchema,
} from './pagination.ts';
