export { bindCheckoutSession } from './checkout/bind-checkout-session.ts';
export { confirmFreeCheckout } from './checkout/confirm-free-checkout.ts';
export { createCheckoutSession } from './checkout/create-checkout-session.ts';
export { createPaymentSession } from './checkout/create-payment-session.ts';
export { getCheckoutSession } from './checkout/get-checkout-session.ts';
export {
  expireCheckoutSessions,
  queueAbandonedCartEmails,
  startCheckoutMaintenance,
  unsubscribeFromCartReminders,
} from './checkout/maintenance.ts';
export { runPaymentActions } from './checkout/payment-actions.ts';
export { repriceCheckoutSession } from './checkout/reprice-checkout-session.ts';
export {
  confirmSandboxPayment,
  sandboxPaymentConfirmInputSchema,
  sandboxPaymentResultSchema,
} from './checkout/sandbox-payment.ts';
export {
  bindCheckoutSessionInputSchema,
  cartRemindersUnsubscribeInputSchema,
  cartRemindersUnsubscribeResultSchema,
  checkoutSessionSchema,
  checkoutTokenInputSchema,
  createCheckoutSessionInputSchema,
  createdCheckoutSessionSchema,
  paymentSessionSchema,
  repriceCheckoutSessionInputSchema,
} from './checkout/schemas.ts';
export { findSessionByToken } from './checkout/session-store.ts';
export {
  type BookingPaymentEvent,
  type BookingSettlement,
  owePaymentRefund,
  settlePaymentEvent,
} from './checkout/settle-payment-event.ts';
export { updateOrderStatus } from './order-status/update-order-status.ts';
export { createLegacyOrder } from './orders/create-legacy-order.ts';
export { shownInCustomerAccount } from './orders/customer-account-visibility.ts';
export { rejectFulfillmentStatusWrite } from './orders/fulfillment-status.ts';
export { getOrder, getOrderByNumber, getPublicOrder, getPublicOrderByNumber } from './orders/get-order.ts';
export { listCustomerAccountOrderReads, listOrders, listPublicOrders } from './orders/list-orders.ts';
export { findOrder, readPublicOrder } from './orders/order-read.ts';
export { findOrderByStatusToken } from './orders/order-status-tokens.ts';
export { projectOrder } from './orders/project-order.ts';
export {
  type CustomerOrderRead,
  createdLegacyOrderSchema,
  createLegacyOrderInputSchema,
  customerOrderSchema,
  fulfillmentStatusSchema,
  type OrderWriteContext,
  orderIdInputSchema,
  orderListQuerySchema,
  orderNumberInputSchema,
  orderSchema,
  orderStatusTokenInputSchema,
  type PublicOrderListQuery,
  publicOrderListQuerySchema,
  publicOrderSchema,
  type ShipmentRead,
  shippingAddressSchema,
  updateOrderNotesInputSchema,
  updateOrderStatusInputSchema,
  updateShippingAddressInputSchema,
} from './orders/schemas.ts';
export { updateOrderNotes } from './orders/update-order-notes.ts';
export { updateShippingAddress } from './orders/update-shipping-address.ts';
export { issueReturnAction } from './return-actions/issue-return-action.ts';
export { performAction } from './return-actions/perform-action.ts';
export { previewAction } from './return-actions/preview-action.ts';
export { pruneActionTokens } from './return-actions/prune-action-tokens.ts';
export {
  actionPreviewSchema,
  actionResultSchema,
  actionTokenInputSchema,
  issuedReturnActionSchema,
  issueReturnActionInputSchema,
  requestReturnActionSchema,
} from './return-actions/schemas.ts';
export { requestReturn } from './returns/create-return.ts';
export { returnsPagePath } from './returns/customer-orders.ts';
export { getReturn, listOrderReturns, listReturns } from './returns/list-returns.ts';
export {
  approveReturn,
  cancelReturn,
  completeReturn,
  receiveReturn,
  rejectReturn,
} from './returns/move-return.ts';
export {
  byNumberInputSchema,
  byReferenceInputSchema,
  type CustomerReturnScope,
  cancelReturnInputSchema,
  createReturnByReferenceInputSchema,
  orderReturnsByNumberQuerySchema,
  orderReturnsByReferenceQuerySchema,
  orderReturnsSchema,
  type ReturnWriteContext,
  rejectReturnInputSchema,
  returnIdInputSchema,
  returnListQuerySchema,
  returnSchema,
} from './returns/schemas.ts';
export { type LockedRecord, lockRecord, resolveRecordId } from './sales-records/lock-record.ts';
export { recordSale, type SaleLineInput } from './sales-records/record-sale.ts';
export type { TaxProvider } from './tax/tax-provider.ts';
export { taxProviderFor } from './tax/tax-provider-for.ts';
