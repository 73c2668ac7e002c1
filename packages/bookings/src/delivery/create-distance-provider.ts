import type { Config } from '@commerce/core';
import {
  type DistanceProvider,
  DistanceUnavailableError,
  sandboxDistanceProvider,
} from './distance-provider.ts';
import { createGoogleDistanceProvider } from './google-distance.ts';

/**
 * No provider (production without DISTANCE_PROVIDER, where the sandbox is not allowed): every lookup
 * fails, so a delivery hold is refused with 503 BOOKING_DELIVERY_UNAVAILABLE, never priced on an
 * invented distance.
 */
export const noDistanceProvider: DistanceProvider = {
  kind: 'none',
  async distance() {
    throw new DistanceUnavailableError('no distance provider is configured (DISTANCE_PROVIDER)');
  },
};

/** The provider DISTANCE_PROVIDER names; `google` has its key (the configuration refuses to start without it). */
export function createDistanceProvider(
  config: Pick<Config, 'distance'>,
  options: { fetch?: typeof fetch } = {},
): DistanceProvider {
  const { provider, apiKey, timeoutMs } = config.distance;
  if (provider === 'google') {
    if (!apiKey) throw new Error('DISTANCE_PROVIDER=google needs DISTANCE_API_KEY');
    return createGoogleDistanceProvider({ apiKey, timeoutMs, ...options });
  }
  if (provider === 'none') return noDistanceProvider;
  return sandboxDistanceProvider;
}
