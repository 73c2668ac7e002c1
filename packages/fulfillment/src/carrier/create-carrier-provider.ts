import type { Clock, Config } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { withCarrierDeadline } from './carrier-deadline.ts';
import type { CarrierProvider, CarrierResult } from './carrier-provider.ts';
import { createSandboxCarrier } from './sandbox-carrier.ts';

/** The name of the carrier a server without one reports (`NO_CARRIER.carrier`). */
export const NO_CARRIER_NAME = 'none';

const notConfigured = async (): Promise<CarrierResult<never>> => ({
  kind: 'UNAVAILABLE',
  message: 'no carrier is configured (CARRIER_PROVIDER)',
});

/**
 * No carrier (production without CARRIER_PROVIDER, where the sandbox is not allowed): no services,
 * and every call answers `UNAVAILABLE` (nothing sent), so quotes and purchases answer
 * 503 PROVIDER_UNAVAILABLE and the sandbox carrier console 404.
 */
export const NO_CARRIER: CarrierProvider = {
  carrier: NO_CARRIER_NAME,
  services: () => [],
  rate: notConfigured,
  balance: notConfigured,
  purchase: notConfigured,
  findPurchase: notConfigured,
  requestVoid: notConfigured,
  readLabel: notConfigured,
  labelDocument: notConfigured,
};

/** The carrier CARRIER_PROVIDER names (only `sandbox` this wave), every call under CARRIER_TIMEOUT_MS. */
export function createCarrierProvider(
  config: Pick<Config, 'carrier'>,
  deps: { db: Kysely<Database>; clock: Clock },
): CarrierProvider {
  if (config.carrier.provider === 'none') return NO_CARRIER;
  const { timeoutMs, sandboxStartingBalanceInCents } = config.carrier;
  return withCarrierDeadline(
    createSandboxCarrier({ ...deps, startingBalanceInCents: sandboxStartingBalanceInCents }),
    timeoutMs,
  );
}
