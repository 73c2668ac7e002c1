import type { Clock, Config } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { withCarrierDeadline } from './carrier-deadline.ts';
import type { CarrierProvider } from './carrier-provider.ts';
import { createSandboxCarrier } from './sandbox-carrier.ts';

/** The carrier CARRIER_PROVIDER names (only `sandbox` this wave), every call under CARRIER_TIMEOUT_MS. */
export function createCarrierProvider(
  config: Pick<Config, 'carrier'>,
  deps: { db: Kysely<Database>; clock: Clock },
): CarrierProvider {
  const { timeoutMs, sandboxStartingBalanceInCents } = config.carrier;
  return withCarrierDeadline(
    createSandboxCarrier({ ...deps, startingBalanceInCents: sandboxStartingBalanceInCents }),
    timeoutMs,
  );
}
