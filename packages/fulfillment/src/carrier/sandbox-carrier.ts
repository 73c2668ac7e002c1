import type { Clock } from '@commerce/core';
import type { Database, SandboxCarrierLabel } from '@commerce/db';
import type { Kysely } from 'kysely';
import {
  type CarrierAccount,
  type CarrierLabel,
  CarrierNotSentError,
  type CarrierProvider,
  type CarrierResult,
  type LabelReference,
  type LabelState,
} from './carrier-provider.ts';
import { behavioursOf, type SandboxBehaviours } from './sandbox-behaviours.ts';
import { renderSandboxLabel, sandboxTrackingNumber, sandboxTrackingUrl } from './sandbox-label.ts';
import { SANDBOX_CARRIER, SANDBOX_SERVICES, sandboxCharge } from './sandbox-services.ts';

export interface SandboxCarrierOptions {
  /** The database the sandbox keeps its `sandbox_carrier_*` tables in; never a caller's transaction. */
  db: Kysely<Database>;
  clock: Clock;
  /** SANDBOX_POSTAGE_BALANCE_IN_CENTS: a tenant's account starts with it at its first use. */
  startingBalanceInCents: number;
}

const ok = <T>(value: T): CarrierResult<T> => ({ kind: 'OK', value });
const unavailable = (what: string): CarrierResult<never> => ({
  kind: 'UNAVAILABLE',
  message: `the sandbox carrier's ${what} is set to fail`,
});
const uncertain = (what: string): CarrierResult<never> => ({
  kind: 'UNCERTAIN',
  message: `the sandbox carrier's ${what} timed out`,
});

export const labelOf = (row: SandboxCarrierLabel): CarrierLabel => ({
  trackingNumber: row.tracking_number,
  trackingUrl: sandboxTrackingUrl(row.tracking_number),
  clientReference: row.client_reference,
  service: row.service,
  chargeInCents: row.charge_in_cents,
  currency: row.currency,
});

const stateOf = (row: SandboxCarrierLabel): LabelState => ({
  status: row.status,
  rawStatus: `sandbox:${row.status.toLowerCase()}`,
  refundAmountInCents: row.status === 'VOIDED' ? row.charge_in_cents : null,
});

/**
 * Opens the tenant's sandbox account at its first use (the starting balance,
 * in the tenant's currency) and locks it: purchases, voids and funds of one
 * tenant run one at a time, as one account at a remote carrier would.
 */
export async function lockSandboxAccount(
  trx: Kysely<Database>,
  account: CarrierAccount,
  startingBalanceInCents: number,
  at: Date,
) {
  await trx
    .insertInto('sandbox_carrier_accounts')
    .values({
      organization_id: account.organizationId,
      balance_in_cents: startingBalanceInCents,
      currency: account.currency,
      created_at: at,
      updated_at: at,
    })
    .onConflict((conflict) => conflict.column('organization_id').doNothing())
    .execute();
  return trx
    .selectFrom('sandbox_carrier_accounts')
    .selectAll()
    .where('organization_id', '=', account.organizationId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/**
 * The deterministic sandbox carrier. Its state lives in its own
 * tables, written in its own transactions as a remote carrier would; a
 * transaction that fails commits nothing, so its failure is `UNAVAILABLE`
 * (nothing sent). Behaviours are per tenant and persist until changed.
 */
export function createSandboxCarrier(options: SandboxCarrierOptions): CarrierProvider {
  const { db, clock, startingBalanceInCents } = options;

  /** Runs the sandbox's own work; it refuses to join a caller's transaction. */
  async function own<T>(work: (handle: Kysely<Database>) => Promise<T>): Promise<T> {
    if (db.isTransaction)
      throw new CarrierNotSentError('the carrier is never called inside a database transaction');
    try {
      return await work(db);
    } catch (error) {
      throw new CarrierNotSentError(`the sandbox carrier failed: ${(error as Error).message}`);
    }
  }

  const behavioursFor = async (
    handle: Kysely<Database>,
    organizationId: string,
  ): Promise<SandboxBehaviours> => {
    const row = await handle
      .selectFrom('sandbox_carrier_accounts')
      .select('behaviours')
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return behavioursOf(row?.behaviours);
  };

  const findLabel = (handle: Kysely<Database>, organizationId: string, trackingNumber: string) =>
    handle
      .selectFrom('sandbox_carrier_labels')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('tracking_number', '=', trackingNumber)
      .executeTakeFirst();

  /** A read of one of the tenant's labels: unavailable while reads fail, LABEL_NOT_FOUND for none. */
  const readingLabel = <T>(
    account: CarrierAccount,
    reference: LabelReference,
    answer: (label: SandboxCarrierLabel) => Promise<CarrierResult<T>>,
  ): Promise<CarrierResult<T>> =>
    own(async (handle) => {
      if ((await behavioursFor(handle, account.organizationId)).read === 'UNAVAILABLE')
        return unavailable('read');
      const label = await findLabel(handle, account.organizationId, reference.trackingNumber);
      if (!label)
        return {
          kind: 'REJECTED',
          providerCode: 'LABEL_NOT_FOUND',
          message: 'The carrier knows no such label',
        };
      return answer(label);
    });

  return {
    carrier: SANDBOX_CARRIER,

    services: () => SANDBOX_SERVICES,

    rate: (account, request) =>
      own(async (handle) => {
        if ((await behavioursFor(handle, account.organizationId)).rate === 'UNAVAILABLE')
          return unavailable('rate');
        const charge = sandboxCharge(
          request.service,
          request.parcel,
          request.shipFrom.country,
          request.shipTo.country,
        );
        if (charge.status === 'REJECTED')
          return {
            kind: 'REJECTED',
            providerCode: charge.providerCode,
            message: 'The service refused the parcel',
          };
        const stored = await handle
          .selectFrom('sandbox_carrier_accounts')
          .select('currency')
          .where('organization_id', '=', account.organizationId)
          .executeTakeFirst();
        return ok({
          service: request.service,
          chargeInCents: charge.chargeInCents,
          currency: stored?.currency ?? account.currency,
          billableWeightGrams: charge.billableWeightGrams,
        });
      }),

    balance: (account) =>
      own(async (handle) => {
        const row = await handle
          .selectFrom('sandbox_carrier_accounts')
          .select(['balance_in_cents', 'currency', 'behaviours'])
          .where('organization_id', '=', account.organizationId)
          .executeTakeFirst();
        if (behavioursOf(row?.behaviours).balance === 'UNAVAILABLE') return unavailable('balance');
        return ok({
          balanceInCents: row?.balance_in_cents ?? startingBalanceInCents,
          currency: row?.currency ?? account.currency,
        });
      }),

    purchase: (account, request) =>
      own((handle) =>
        handle.transaction().execute(async (trx): Promise<CarrierResult<CarrierLabel>> => {
          const at = clock.now();
          const row = await lockSandboxAccount(trx, account, startingBalanceInCents, at);
          // The client reference is the idempotency key: a repeat answers the label already sold.
          const existing = await trx
            .selectFrom('sandbox_carrier_labels')
            .selectAll()
            .where('organization_id', '=', account.organizationId)
            .where('client_reference', '=', request.clientReference)
            .executeTakeFirst();
          if (existing) return ok(labelOf(existing));
          const behaviour = behavioursOf(row.behaviours).purchase;
          if (behaviour === 'UNAVAILABLE') return unavailable('purchase');
          if (behaviour === 'TIMEOUT_NOT_COMMITTED') return uncertain('purchase');
          if (behaviour === 'DECLINED')
            return {
              kind: 'REJECTED',
              providerCode: 'DECLINED',
              message: 'The sandbox carrier declined the label',
            };
          const charge = sandboxCharge(
            request.service,
            request.parcel,
            request.shipFrom.country,
            request.shipTo.country,
          );
          if (charge.status === 'REJECTED')
            return {
              kind: 'REJECTED',
              providerCode: charge.providerCode,
              message: 'The service refused the parcel',
            };
          if (row.balance_in_cents < charge.chargeInCents)
            return {
              kind: 'REJECTED',
              providerCode: 'INSUFFICIENT_FUNDS',
              message: 'The prepaid balance does not cover the label',
            };
          await trx
            .updateTable('sandbox_carrier_accounts')
            .set((eb) => ({
              balance_in_cents: eb('balance_in_cents', '-', charge.chargeInCents),
              purchase_count: eb('purchase_count', '+', 1),
              updated_at: at,
            }))
            .where('organization_id', '=', account.organizationId)
            .execute();
          const label = await trx
            .insertInto('sandbox_carrier_labels')
            .values({
              organization_id: account.organizationId,
              tracking_number: sandboxTrackingNumber(request.clientReference),
              client_reference: request.clientReference,
              service: request.service,
              charge_in_cents: charge.chargeInCents,
              currency: row.currency,
              status: 'ACTIVE',
              created_at: at,
              updated_at: at,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          // TIMEOUT_COMMITTED: the label is bought and debited; the answer is lost.
          return behaviour === 'TIMEOUT_COMMITTED' ? uncertain('purchase') : ok(labelOf(label));
        }),
      ),

    findPurchase: (account, clientReference) =>
      own(async (handle) => {
        if ((await behavioursFor(handle, account.organizationId)).read === 'UNAVAILABLE')
          return unavailable('read');
        const label = await handle
          .selectFrom('sandbox_carrier_labels')
          .selectAll()
          .where('organization_id', '=', account.organizationId)
          .where('client_reference', '=', clientReference)
          .executeTakeFirst();
        return ok(label ? { status: 'PURCHASED', label: labelOf(label) } : { status: 'NOT_FOUND' });
      }),

    requestVoid: (account, reference) =>
      own((handle) =>
        handle.transaction().execute(async (trx): Promise<CarrierResult<LabelState>> => {
          const at = clock.now();
          const row = await lockSandboxAccount(trx, account, startingBalanceInCents, at);
          const label = await findLabel(trx, account.organizationId, reference.trackingNumber);
          if (!label)
            return {
              kind: 'REJECTED',
              providerCode: 'LABEL_NOT_FOUND',
              message: 'The carrier knows no such label',
            };
          if (label.status !== 'ACTIVE')
            return {
              kind: 'REJECTED',
              providerCode: 'LABEL_NOT_ACTIVE',
              message: `The label is ${label.status.toLowerCase()}`,
            };
          const behaviour = behavioursOf(row.behaviours).void;
          const status =
            behaviour === 'VOIDED' || behaviour === 'TIMEOUT_COMMITTED'
              ? 'VOIDED'
              : behaviour === 'PENDING' || behaviour === 'TIMEOUT_PENDING'
                ? 'VOID_PENDING'
                : 'ACTIVE';
          const updated = await trx
            .updateTable('sandbox_carrier_labels')
            .set((eb) => ({ status, void_request_count: eb('void_request_count', '+', 1), updated_at: at }))
            .where('organization_id', '=', account.organizationId)
            .where('tracking_number', '=', label.tracking_number)
            .returningAll()
            .executeTakeFirstOrThrow();
          if (status === 'VOIDED') await creditRefund(trx, account.organizationId, label.charge_in_cents, at);
          if (behaviour === 'REJECTED')
            return {
              kind: 'REJECTED',
              providerCode: 'VOID_REJECTED',
              message: 'The sandbox carrier refused the void',
            };
          if (behaviour === 'TIMEOUT_COMMITTED' || behaviour === 'TIMEOUT_PENDING') return uncertain('void');
          return ok(stateOf(updated));
        }),
      ),

    readLabel: (account, reference) => readingLabel(account, reference, async (label) => ok(stateOf(label))),

    labelDocument: (account, reference) =>
      readingLabel(account, reference, async (label) =>
        ok(
          await renderSandboxLabel({
            trackingNumber: label.tracking_number,
            service: label.service,
            createdAt: new Date(label.created_at),
          }),
        ),
      ),
  };
}

/** A settled void gives the label's charge back to the account. */
export async function creditRefund(
  trx: Kysely<Database>,
  organizationId: string,
  amountInCents: number,
  at: Date,
): Promise<void> {
  await trx
    .updateTable('sandbox_carrier_accounts')
    .set((eb) => ({ balance_in_cents: eb('balance_in_cents', '+', amountInCents), updated_at: at }))
    .where('organization_id', '=', organizationId)
    .execute();
}
