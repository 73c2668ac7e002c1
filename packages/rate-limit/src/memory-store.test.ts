import { describeRateLimiterBehaviour } from '../test/rate-limiter-behaviour.ts';

describeRateLimiterBehaviour('memory', {
  skip: false,
  isShared: false,
  open: async () => ({ store: { kind: 'memory' }, close: async () => {} }),
});
