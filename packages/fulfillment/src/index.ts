export { archiveBoxPreset, restoreBoxPreset } from './box-presets/archive-box-preset.ts';
export { createBoxPreset } from './box-presets/create-box-preset.ts';
export { getBoxPreset } from './box-presets/get-box-preset.ts';
export { listBoxPresets } from './box-presets/list-box-presets.ts';
export {
  type BoxPresetWriteContext,
  boxPresetActionInputSchema,
  boxPresetListQuerySchema,
  boxPresetReadInputSchema,
  boxPresetSchema,
  createBoxPresetInputSchema,
  updateBoxPresetInputSchema,
} from './box-presets/schemas.ts';
export { updateBoxPreset } from './box-presets/update-box-preset.ts';
export type { CarrierProvider } from './carrier/carrier-provider.ts';
export { createCarrierProvider } from './carrier/create-carrier-provider.ts';
export {
  addSandboxFunds,
  listCarriers,
  readSandboxCarrier,
  settleSandboxVoid,
  updateSandboxCarrier,
} from './carrier/sandbox-control.ts';
export { SANDBOX_CARRIER } from './carrier/sandbox-services.ts';
export {
  carrierListSchema,
  type SandboxControlContext,
  sandboxCarrierSchema,
  sandboxCarrierUpdateInputSchema,
  sandboxFundsInputSchema,
  sandboxSettleVoidInputSchema,
} from './carrier/schemas.ts';
export {
  getCustomerOrder,
  getOrderByStatusToken,
  listCustomerAccountOrders,
} from './customer-orders/customer-order-reads.ts';
export { attachExternalPostage } from './fulfillments/attach-external-postage.ts';
export { cancelFulfillment } from './fulfillments/cancel-fulfillment.ts';
export { createDirectFulfillment } from './fulfillments/create-direct-fulfillment.ts';
export { deliverFulfillment } from './fulfillments/deliver-fulfillment.ts';
export { getFulfillment, listFulfillments } from './fulfillments/fulfillment-read.ts';
export { handOffFulfillment } from './fulfillments/hand-off-fulfillment.ts';
export { planFulfillment } from './fulfillments/plan-fulfillment.ts';
export { repairTracking } from './fulfillments/repair-tracking.ts';
export {
  attachExternalPostageInputSchema,
  cancelFulfillmentInputSchema,
  createDirectFulfillmentInputSchema,
  deliverFulfillmentInputSchema,
  directFulfillmentSchema,
  type FulfillmentContext,
  fulfillmentListQuerySchema,
  fulfillmentPathSchema,
  fulfillmentSchema,
  handOffFulfillmentInputSchema,
  planFulfillmentInputSchema,
  repairTrackingInputSchema,
} from './fulfillments/schemas.ts';
export { acknowledgeRetiredPostage } from './shipment-cancellations/acknowledge-retired-postage.ts';
export { cancelPreparedShipment } from './shipment-cancellations/cancel-prepared-shipment.ts';
export { checkCarrierForCancellation } from './shipment-cancellations/carrier-check.ts';
export {
  cancelPreparedShipmentInputSchema,
  carrierCheckInputSchema,
  retiredPostageAcknowledgementInputSchema,
  type ShipmentCancellationContext,
} from './shipment-cancellations/schemas.ts';
export { readPostageBalance } from './shipping-label/funding.ts';
export { getLabelPurchase, listLabelPurchases } from './shipping-label/label-purchase-read.ts';
export { purchaseShippingLabel } from './shipping-label/purchase-shipping-label.ts';
export { quoteShippingLabel } from './shipping-label/quote-shipping-label.ts';
export { reconcileLabelPurchase } from './shipping-label/reconcile-label-purchase.ts';
export {
  labelPurchaseListQuerySchema,
  labelPurchasePathSchema,
  labelPurchaseResultSchema,
  labelPurchaseSchema,
  labelReconcileResultSchema,
  postageBalanceSchema,
  purchaseShippingLabelInputSchema,
  reconcileLabelPurchaseInputSchema,
  shippingLabelQuoteInputSchema,
  shippingLabelQuoteSchema,
} from './shipping-label/schemas.ts';
export type { LabelPurchaseContext } from './shipping-label/settle-label-purchase.ts';
export {
  type CandidatePreset,
  type PackLine,
  recommendPackage,
} from './shipping-package/recommend-package.ts';
export { recommendShippingPackage } from './shipping-package/recommend-shipping-package.ts';
export {
  recommendShippingPackageInputSchema,
  shippingPackageRecommendationSchema,
} from './shipping-package/schemas.ts';
export { startLabelSweeps } from './sweeps/label-sweeps.ts';
export { exportWarehouseCsv } from './warehouse/export-warehouse-csv.ts';
export { listWarehouseOutputs } from './warehouse/list-warehouse-outputs.ts';
export { streamLabelBatch } from './warehouse/print-label-batch.ts';
export {
  type WarehouseContext,
  warehouseOutputListQuerySchema,
  warehouseOutputSchema,
  warehouseSelectionInputSchema,
} from './warehouse/schemas.ts';
export { fileStamp } from './warehouse/warehouse-selection.ts';
