import { pageSchema } from '@commerce/core';
import {
  listWarehouseOutputs,
  warehouseOutputListQuerySchema,
  warehouseOutputSchema,
} from '@commerce/orders';
import { merchantProcedure } from '../../../trpc.ts';
import { BASE, TAGS } from './docs.ts';

const LABEL_ELIGIBILITY =
  '`labelEligibility { canPrint, canPurchase, reason }`: `canPrint` when the fulfillment is `READY` with native `ACTIVE` postage whose label is stored (the labels batch takes it; it still checks the document); `canPurchase` when it has no current postage (`PLANNED`, or `READY` after a void or retirement), a ship-to address and no unsettled label purchase. `reason` is null when it can print, else what stands in the way: `PURCHASE_UNSETTLED` or `SHIP_TO_ADDRESS_MISSING` (the purchase is blocked), `NO_POSTAGE` (a plan), `POSTAGE_RETIRED` (voided or retired, may be relabelled), `EXTERNAL_POSTAGE`, `VOID_PENDING` (a void is open), `LABEL_MISSING` (native postage without a stored label; legacy postage, which has none).';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: BASE,
      tags: TAGS,
      summary: 'Fulfillments not yet handed off, with packing slips and label eligibility',
      description: [
        'Open to any member. The organization’s `PLANNED` and `READY` fulfillments (`status`: `PLANNED`, `READY` or both comma-separated, the default), by fulfillment id ascending, keyset-paginated: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor naming no fulfillment of the organization is `400`.',
        'Each row: `fulfillmentId, recordId, orderId, orderNumber, orderReference, status, createdAt, package, postage` (the current one: `source, status, carrier, service, trackingNumber`, else null), `packingSlip { orderNumber, orderDate, customerName, shipTo, lines[{ lineId, sku, name, variantName, quantity }] }` (never the order notes) and the label eligibility.',
        LABEL_ELIGIBILITY,
      ].join('\n\n'),
    },
  })
  .input(warehouseOutputListQuerySchema)
  .output(pageSchema(warehouseOutputSchema))
  .query(({ ctx, input }) => listWarehouseOutputs(ctx.db, ctx.tenant.organizationId, input));
