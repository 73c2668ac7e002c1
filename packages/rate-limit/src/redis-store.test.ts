import { describeRateLimiterBehaviour } from '../test/rate-limiter-behaviour.ts';

const redisUrl = process.env.TEST_REDIS_URL;

describeRateLimiterBehaviour('redis', {
  skip: !redisUrl,
  isShared: true,
  open: async () => ({ store: { kind: 'redis', url: redisUrl ?? '' }, close: async () => {} }),
});
