export { booleanQuerySchema } from './boolean-query.ts';
export { canonicalJson } from './canonical-json.ts';
export { type Clock, ManualClock, systemClock } from './clock.ts';
export { type Config, ConfigError, DEVELOPMENT_JWT_SECRET, loadConfig } from './config.ts';
export { currencyExponent, formatMoney } from './currency.ts';
export {
  AppError,
  ERROR_TABLE,
  type ErrorCode,
  formatIssuePath,
  isAppError,
  MAX_VALIDATION_ISSUES,
  type ValidationIssue,
} from './errors.ts';
export { newId } from './ids.ts';
export { ORGANIZATION_SLUG_PATTERN } from './organization-slug.ts';
export {
  cursorSchema,
  keysetAfter,
  limitSchema,
  type Page,
  type PageQuery,
  pageQuerySchema,
  pageSchema,
  toPage,
} from './pagination.ts';
export { runPeriodically } from './periodic.ts';
export { hashToken, isTokenOf, newOrderReference, newToken, secretsEqual } from './tokens.ts';
