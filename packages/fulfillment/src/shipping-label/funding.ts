import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type {
  CarrierAccount,
  CarrierBalance,
  CarrierProvider,
  CarrierResult,
} from '../carrier/carrier-provider.ts';
import type { Funding, PostageBalance } from './schemas.ts';

/**
 * The charges the organization's unsettled purchases hold: `PENDING`
 * and `UNCERTAIN` ones, which may yet spend. Run it inside the claim
 * transaction, after its lock, to re-sum under the lock.
 */
export async function openClaimsInCents(db: Kysely<Database>, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('label_purchases')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('charge_in_cents'), eb.lit(0)).as('total'))
    .where('organization_id', '=', organizationId)
    .where('status', 'in', ['PENDING', 'UNCERTAIN'])
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * The claim's re-sum under the `postage_accounts` lock: the open
 * claims, plus the charges of purchases settled `PURCHASED` since the
 * balance was read (`balanceReadAt`): their debits may postdate that read,
 * so a balance read before concurrent purchases settled never lets later
 * claims spend it again. Counting one that the read did include only errs
 * on the safe side.
 */
export async function committedSinceInCents(
  db: Kysely<Database>,
  organizationId: string,
  balanceReadAt: Date,
): Promise<number> {
  const row = await db
    .selectFrom('label_purchases')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('charge_in_cents'), eb.lit(0)).as('total'))
    .where('organization_id', '=', organizationId)
    .where((eb) =>
      eb.or([
        eb('status', 'in', ['PENDING', 'UNCERTAIN']),
        eb.and([eb('status', '=', 'PURCHASED'), eb('settled_at', '>=', balanceReadAt)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * The quote's funding: available is the balance less open
 * claims; `SUFFICIENT` when it covers the charge, `INSUFFICIENT` with the
 * shortfall when not, `UNKNOWN` when the balance could not be read or there
 * is no charge to cover. There is never an automatic top-up.
 */
export function fundingOf(
  balance: CarrierResult<CarrierBalance> | null,
  openClaims: number,
  chargeInCents: number | null,
): Funding {
  const base = {
    fundingModel: 'PREPAID_BALANCE' as const,
    openClaimsInCents: openClaims,
    autoTopUp: false as const,
  };
  if (balance === null || balance.kind !== 'OK')
    return {
      ...base,
      status: 'UNKNOWN',
      balanceInCents: null,
      availableInCents: null,
      shortfallInCents: null,
    };
  const availableInCents = balance.value.balanceInCents - openClaims;
  if (chargeInCents === null)
    return {
      ...base,
      status: 'UNKNOWN',
      balanceInCents: balance.value.balanceInCents,
      availableInCents,
      shortfallInCents: null,
    };
  const shortfallInCents = Math.max(0, chargeInCents - availableInCents);
  return {
    ...base,
    status: shortfallInCents === 0 ? 'SUFFICIENT' : 'INSUFFICIENT',
    balanceInCents: balance.value.balanceInCents,
    availableInCents,
    shortfallInCents,
  };
}

const balanceUnavailable = () =>
  new AppError('PROVIDER_UNAVAILABLE', 'The carrier balance could not be read; nothing was spent');

/**
 * The purchase's funding preflight (its step 5): reads the balance
 * (never in a transaction) and compares the charge with it less open claims.
 * A failed read is 503 PROVIDER_UNAVAILABLE (never spend blind); short is
 * 409 INSUFFICIENT_POSTAGE_FUNDS `{ requiredInCents, availableInCents,
 * shortfallInCents }`. Answers the balance for the claim's re-check under
 * its lock (`assertFundsCover`).
 */
export async function fundingPreflight(
  db: Kysely<Database>,
  carrier: CarrierProvider,
  account: CarrierAccount,
  chargeInCents: number,
): Promise<CarrierBalance> {
  const balance = await carrier.balance(account);
  if (balance.kind !== 'OK') throw balanceUnavailable();
  assertFundsCover(
    balance.value.balanceInCents,
    await openClaimsInCents(db, account.organizationId),
    chargeInCents,
  );
  return balance.value;
}

/** 409 INSUFFICIENT_POSTAGE_FUNDS unless the balance less open claims covers the charge. */
export function assertFundsCover(balanceInCents: number, openClaims: number, requiredInCents: number): void {
  const availableInCents = balanceInCents - openClaims;
  if (availableInCents < requiredInCents)
    throw new AppError('INSUFFICIENT_POSTAGE_FUNDS', 'The postage balance does not cover the label', {
      requiredInCents,
      availableInCents,
      shortfallInCents: requiredInCents - availableInCents,
    });
}

/**
 * `GET /merchant/shipping/postage-balance`: the carrier's balance
 * read now, less open claims. A failed read is 503 PROVIDER_UNAVAILABLE.
 */
export async function readPostageBalance(
  db: Kysely<Database>,
  carrier: CarrierProvider,
  account: CarrierAccount,
  at: Date,
): Promise<PostageBalance> {
  const [balance, openClaims] = await Promise.all([
    carrier.balance(account),
    openClaimsInCents(db, account.organizationId),
  ]);
  if (balance.kind !== 'OK') throw balanceUnavailable();
  return {
    carrier: carrier.carrier,
    fundingModel: 'PREPAID_BALANCE',
    balanceInCents: balance.value.balanceInCents,
    openClaimsInCents: openClaims,
    availableInCents: balance.value.balanceInCents - openClaims,
    currency: balance.value.currency,
    autoTopUp: false,
    checkedAt: at.toISOString(),
  };
}
