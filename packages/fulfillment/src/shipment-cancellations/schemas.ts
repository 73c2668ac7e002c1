import type { Clock } from '@commerce/core';
import type { AuditActor } from '@commerce/db';
import { z } from 'zod';
import type { CarrierProvider } from '../carrier/carrier-provider.ts';

/** Who cancels a prepared shipment, checks the carrier or retires postage, with which carrier, and when. */
export interface ShipmentCancellationContext {
  organizationId: string;
  actor: AuditActor;
  clock: Clock;
  carrier: CarrierProvider;
}

const pathId = (what: string) => z.string().min(1).max(64).describe(what);
const orderIdSchema = pathId(
  'The order (`ord_…`) or its sales record (`sal_…`); either id of the pair names the same record',
);
const fulfillmentIdSchema = pathId('The fulfillment (`ful_…`) of that order');
const reasonSchema = z.string().trim().min(1).max(500);

export const cancelPreparedShipmentInputSchema = z.strictObject({
  orderId: orderIdSchema,
  fulfillmentId: fulfillmentIdSchema,
  reason: reasonSchema.optional().describe('1 to 500 characters after trimming'),
});
export type CancelPreparedShipmentInput = z.output<typeof cancelPreparedShipmentInputSchema>;

export const carrierCheckInputSchema = z.strictObject({
  orderId: orderIdSchema,
  fulfillmentId: fulfillmentIdSchema,
});
export type CarrierCheckInput = z.output<typeof carrierCheckInputSchema>;

export const retiredPostageAcknowledgementInputSchema = z.strictObject({
  orderId: orderIdSchema,
  fulfillmentId: fulfillmentIdSchema,
  reason: reasonSchema.describe('Why the label will not be used: 1 to 500 characters after trimming'),
  acknowledge: z.literal(true).describe('Must be `true`'),
});
export type RetiredPostageAcknowledgementInput = z.output<typeof retiredPostageAcknowledgementInputSchema>;
