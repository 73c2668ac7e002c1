import type { Config } from '@commerce/core';
import { type DistanceProvider, sandboxDistanceProvider } from './distance-provider.ts';
import { createGoogleDistanceProvider } from './google-distance.ts';

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
  return sandboxDistanceProvider;
}
