import { AppError } from '@commerce/core';
import type { MerchantUser } from '@commerce/db';
import {
  addSandboxFunds,
  carrierListSchema,
  listCarriers,
  postageBalanceSchema,
  readPostageBalance,
  readSandboxCarrier,
  SANDBOX_CARRIER,
  type SandboxControlContext,
  sandboxCarrierSchema,
  sandboxCarrierUpdateInputSchema,
  sandboxFundsInputSchema,
  sandboxSettleVoidInputSchema,
  settleSandboxVoid,
  updateSandboxCarrier,
} from '@commerce/fulfillment';
import { z } from 'zod';
import type { ApiContext } from '../../context.ts';
import { merchantProcedure, merchantProcedureFor, router } from '../../trpc.ts';
import { storeCurrency } from './booking-services.ts';

const TAGS = ['Merchant: shipping'];

/** Sandbox carrier control (13.10): Owner or Admin; Staff get 403 whatever their groups. */
const sandboxConsole = merchantProcedureFor('Owner', 'Admin');

const SANDBOX_ONLY =
  'Only while the configured carrier is the sandbox (`CARRIER_PROVIDER=sandbox`, the default outside production; a production server runs it only with `ALLOW_SANDBOX_IN_PRODUCTION=true`, every answer then marked `x-sandbox`); otherwise `404 RESOURCE_NOT_FOUND`.';

/** The console's context; 404 unless the configured carrier is the sandbox. */
async function sandboxContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): Promise<SandboxControlContext> {
  if (ctx.services.carrier.carrier !== SANDBOX_CARRIER) throw AppError.notFound();
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
    currency: await storeCurrency(ctx, ctx.tenant.organizationId),
    startingBalanceInCents: ctx.config.carrier.sandboxStartingBalanceInCents,
  };
}

export const merchantCarrierRouter = router({
  listCarriers: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/shipping/carriers',
        tags: TAGS,
        summary: 'The configured carrier and its services',
        description:
          'Open to any member. `{ data: [{ carrier, services: [{ code, name, domesticOnly }] }], nextCursor: null }`: the one carrier `CARRIER_PROVIDER` configures (the sandbox: `GROUND`, `EXPRESS`, `OVERNIGHT`, the last domestic only). A quote or purchase names one of these pairs. A production server without a carrier (no sandbox allowed there) lists none, and its quotes, purchases and balance answer `503 PROVIDER_UNAVAILABLE`.',
      },
    })
    .input(z.object({}))
    .output(carrierListSchema)
    .query(({ ctx }) => listCarriers(ctx.services.carrier)),

  postageBalance: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/shipping/postage-balance',
        tags: TAGS,
        summary: 'The prepaid postage balance',
        description:
          "Open to any member. Asks the carrier for the organization's prepaid balance now: `{ carrier, fundingModel: PREPAID_BALANCE, balanceInCents, openClaimsInCents, availableInCents, currency, autoTopUp: false, checkedAt }`; `availableInCents` is the balance less the charges of the organization's `PENDING` and `UNCERTAIN` label purchases, what a purchase may spend. A balance the carrier could not give (unreachable, or no answer within `CARRIER_TIMEOUT_MS`) is `503 PROVIDER_UNAVAILABLE`.",
      },
      errors: ['PROVIDER_UNAVAILABLE'],
    })
    .input(z.object({}))
    .output(postageBalanceSchema)
    .query(async ({ ctx }) =>
      readPostageBalance(
        ctx.db,
        ctx.services.carrier,
        {
          organizationId: ctx.tenant.organizationId,
          currency: await storeCurrency(ctx, ctx.tenant.organizationId),
        },
        ctx.clock.now(),
      ),
    ),

  getSandbox: sandboxConsole
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/shipping/sandbox-carrier',
        tags: TAGS,
        summary: "The sandbox carrier's account of this organization",
        description: `${SANDBOX_ONLY} \`{ balanceInCents, currency, behaviours, purchaseCount, labels[] }\`: the prepaid balance (from \`SANDBOX_POSTAGE_BALANCE_IN_CENTS\` at first use, debited by purchases, credited by settled voids and funds), the behaviours in force, and the latest 100 labels \`{ trackingNumber, purchaseId, status, voidRequestCount }\`, newest first.`,
      },
    })
    .input(z.object({}))
    .output(sandboxCarrierSchema)
    .query(async ({ ctx }) => readSandboxCarrier(ctx.db, await sandboxContext(ctx))),

  updateSandbox: sandboxConsole
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/shipping/sandbox-carrier',
        tags: TAGS,
        summary: "Set the sandbox carrier's behaviours",
        description: `${SANDBOX_ONLY} Body \`{ behaviours }\`, partial: any of \`rate\` (\`OK\`, \`UNAVAILABLE\`), \`balance\` (\`OK\`, \`UNAVAILABLE\`), \`purchase\` (\`OK\`, \`DECLINED\`, \`UNAVAILABLE\`, \`TIMEOUT_COMMITTED\`, \`TIMEOUT_NOT_COMMITTED\`), \`void\` (\`VOIDED\`, \`PENDING\`, \`REJECTED\`, \`TIMEOUT_COMMITTED\`, \`TIMEOUT_PENDING\`), \`read\` (\`OK\`, \`UNAVAILABLE\`). A behaviour holds for every later call of this organization until it is changed again. Audited as \`sandbox_carrier.updated\` with the changed \`fields\`; a change that changes nothing records nothing. Answers the account as \`GET\` does.`,
      },
    })
    .input(sandboxCarrierUpdateInputSchema)
    .output(sandboxCarrierSchema)
    .mutation(async ({ ctx, input }) => updateSandboxCarrier(ctx.db, await sandboxContext(ctx), input)),

  addSandboxFunds: sandboxConsole
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/shipping/sandbox-carrier/funds',
        tags: TAGS,
        summary: 'Add funds to the sandbox carrier balance',
        description: `${SANDBOX_ONLY} Body \`{ amountInCents }\`, 1 to 10000000: the only way funds are ever added (the carrier has no top-up method, and \`autoTopUp\` is always false). A balance that would pass 2000000000 is \`400\`. Audited as \`postage.sandbox_funds_added\`. Answers the account as \`GET\` does.`,
      },
    })
    .input(sandboxFundsInputSchema)
    .output(sandboxCarrierSchema)
    .mutation(async ({ ctx, input }) => addSandboxFunds(ctx.db, await sandboxContext(ctx), input)),

  settleSandboxVoid: sandboxConsole
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/shipping/sandbox-carrier/labels/{trackingNumber}/settle-void',
        tags: TAGS,
        summary: 'End a pending sandbox refund',
        description: `${SANDBOX_ONLY} Body \`{ outcome: VOIDED or REJECTED }\`: the carrier ends a refund in progress on a label in \`VOID_PENDING\` (a void answered \`PENDING\`): \`VOIDED\` credits its charge back, \`REJECTED\` leaves the label standing (\`VOID_REJECTED\`). A label in any other status is \`409 INVALID_STATE_TRANSITION\` (\`details.status\`); an unknown tracking number \`404\`. Audited as \`sandbox_carrier.updated\`. Answers the account as \`GET\` does.`,
      },
      errors: ['INVALID_STATE_TRANSITION'],
    })
    .input(sandboxSettleVoidInputSchema)
    .output(sandboxCarrierSchema)
    .mutation(async ({ ctx, input }) => settleSandboxVoid(ctx.db, await sandboxContext(ctx), input)),
});
