import { AppError } from '@commerce/core';
import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { CarrierProvider } from './carrier-provider.ts';
import { behavioursOf } from './sandbox-behaviours.ts';
import { creditRefund, lockSandboxAccount } from './sandbox-carrier.ts';
import {
  type CarrierList,
  MAX_SANDBOX_BALANCE_IN_CENTS,
  SANDBOX_LABELS_SHOWN,
  type SandboxCarrierRead,
  type SandboxCarrierUpdateInput,
  type SandboxControlContext,
  type SandboxFundsInput,
  type SandboxSettleVoidInput,
} from './schemas.ts';

/** `GET /merchant/shipping/carriers`: the configured carrier and its services. */
export function listCarriers(carrier: CarrierProvider): CarrierList {
  // A server without a carrier lists none.
  if (carrier.services().length === 0) return { data: [], nextCursor: null };
  return {
    data: [
      {
        carrier: carrier.carrier,
        services: carrier.services().map(({ code, name, domesticOnly }) => ({ code, name, domesticOnly })),
      },
    ],
    nextCursor: null,
  };
}

/**
 * `GET /merchant/shipping/sandbox-carrier`: the tenant's sandbox account as
 * the carrier keeps it. Before its first use, the starting balance and the
 * default behaviours (reading opens nothing).
 */
export async function readSandboxCarrier(
  db: Kysely<Database>,
  ctx: Pick<SandboxControlContext, 'organizationId' | 'currency' | 'startingBalanceInCents'>,
): Promise<SandboxCarrierRead> {
  const [account, labels] = await Promise.all([
    db
      .selectFrom('sandbox_carrier_accounts')
      .selectAll()
      .where('organization_id', '=', ctx.organizationId)
      .executeTakeFirst(),
    db
      .selectFrom('sandbox_carrier_labels')
      .select(['tracking_number', 'client_reference', 'status', 'void_request_count'])
      .where('organization_id', '=', ctx.organizationId)
      .orderBy('created_at', 'desc')
      .orderBy('tracking_number', 'desc')
      .limit(SANDBOX_LABELS_SHOWN)
      .execute(),
  ]);
  return {
    balanceInCents: account?.balance_in_cents ?? ctx.startingBalanceInCents,
    currency: account?.currency ?? ctx.currency,
    behaviours: behavioursOf(account?.behaviours),
    purchaseCount: account?.purchase_count ?? 0,
    labels: labels.map((label) => ({
      trackingNumber: label.tracking_number,
      purchaseId: label.client_reference,
      status: label.status,
      voidRequestCount: label.void_request_count,
    })),
  };
}

/**
 * `PATCH /merchant/shipping/sandbox-carrier`: sets behaviours, which hold
 * until changed again (never "next call only"). Audited as
 * `sandbox_carrier.updated` with the changed keys; no change records nothing.
 */
export async function updateSandboxCarrier(
  db: Kysely<Database>,
  ctx: SandboxControlContext,
  input: SandboxCarrierUpdateInput,
): Promise<SandboxCarrierRead> {
  await inTransaction(db, async (trx) => {
    const account = await lockSandboxAccount(trx, ctx, ctx.startingBalanceInCents, ctx.at);
    const current = behavioursOf(account.behaviours);
    const next = { ...current, ...Object.fromEntries(Object.entries(input.behaviours).filter(([, v]) => v)) };
    const fields = (Object.keys(current) as (keyof typeof current)[]).filter(
      (key) => current[key] !== next[key],
    );
    if (fields.length === 0) return;
    await trx
      .updateTable('sandbox_carrier_accounts')
      .set({ behaviours: JSON.stringify(next), updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .execute();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'sandbox_carrier.updated',
      targetType: 'sandbox_carrier',
      targetId: null,
      metadata: { fields },
      at: ctx.at,
    });
  });
  return readSandboxCarrier(db, ctx);
}

/**
 * `POST …/sandbox-carrier/funds`: the only way funds are ever added (there is
 * no top-up method on the carrier). Audited as `postage.sandbox_funds_added`.
 */
export async function addSandboxFunds(
  db: Kysely<Database>,
  ctx: SandboxControlContext,
  input: SandboxFundsInput,
): Promise<SandboxCarrierRead> {
  await inTransaction(db, async (trx) => {
    const account = await lockSandboxAccount(trx, ctx, ctx.startingBalanceInCents, ctx.at);
    if (account.balance_in_cents + input.amountInCents > MAX_SANDBOX_BALANCE_IN_CENTS)
      throw AppError.validation([
        {
          path: 'amountInCents',
          message: `would take the balance over ${MAX_SANDBOX_BALANCE_IN_CENTS}`,
        },
      ]);
    await creditRefund(trx, ctx.organizationId, input.amountInCents, ctx.at);
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'postage.sandbox_funds_added',
      targetType: 'sandbox_carrier',
      targetId: null,
      metadata: { amountInCents: input.amountInCents },
      at: ctx.at,
    });
  });
  return readSandboxCarrier(db, ctx);
}

/**
 * `POST …/sandbox-carrier/labels/:trackingNumber/settle-void`: the carrier
 * ends a refund in progress. `VOIDED` credits the charge back; `REJECTED`
 * leaves the label standing (`VOID_REJECTED`). A label that is not
 * `VOID_PENDING` is 409 INVALID_STATE_TRANSITION; an unknown one 404.
 */
export async function settleSandboxVoid(
  db: Kysely<Database>,
  ctx: SandboxControlContext,
  input: SandboxSettleVoidInput,
): Promise<SandboxCarrierRead> {
  await inTransaction(db, async (trx) => {
    await lockSandboxAccount(trx, ctx, ctx.startingBalanceInCents, ctx.at);
    const label = await trx
      .selectFrom('sandbox_carrier_labels')
      .selectAll()
      .where('organization_id', '=', ctx.organizationId)
      .where('tracking_number', '=', input.trackingNumber)
      .executeTakeFirst();
    if (!label) throw AppError.notFound('Label not found');
    if (label.status !== 'VOID_PENDING')
      throw new AppError('INVALID_STATE_TRANSITION', 'The label has no refund in progress', {
        status: label.status,
      });
    await trx
      .updateTable('sandbox_carrier_labels')
      .set({ status: input.outcome === 'VOIDED' ? 'VOIDED' : 'VOID_REJECTED', updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('tracking_number', '=', label.tracking_number)
      .execute();
    if (input.outcome === 'VOIDED')
      await creditRefund(trx, ctx.organizationId, label.charge_in_cents, ctx.at);
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'sandbox_carrier.updated',
      targetType: 'sandbox_carrier',
      targetId: label.tracking_number,
      metadata: { fields: ['labels'], trackingNumber: label.tracking_number, outcome: input.outcome },
      at: ctx.at,
    });
  });
  return readSandboxCarrier(db, ctx);
}
