export { clientKeyOf, DEFAULT_IPV6_PREFIX } from './client-key.ts';
export {
  type CreateRateLimiterOptions,
  createRateLimiter,
  type RateLimiter,
  type RateLimitRule,
} from './create-rate-limiter.ts';
export { rateLimitKey } from './rate-limit-key.ts';
export { parseRateLimitStore, type RateLimitStore } from './rate-limit-store.ts';
