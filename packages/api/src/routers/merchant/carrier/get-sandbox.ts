import { readSandboxCarrier, sandboxCarrierSchema } from '@commerce/orders';
import { z } from 'zod';
import { SANDBOX_ONLY, TAGS } from './docs.ts';
import { sandboxConsole, sandboxContext } from './sandbox-console.ts';

export const getSandboxProcedure = sandboxConsole
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
  .query(async ({ ctx }) => readSandboxCarrier(ctx.db, await sandboxContext(ctx)));
