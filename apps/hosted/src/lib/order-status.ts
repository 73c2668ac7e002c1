/**
 * One status a shopper reads for an order, derived from the three the API keeps apart (the order's
 * `status`, its payment and its fulfillment) and its shipments, so the page never shows "Pending"
 * beside a delivered parcel. The first that applies wins: cancelled, a payment problem, the
 * shipments (delivered, shipped, partly shipped), then where the store is with the order.
 */
export interface OrderProgressInput {
  status: 'PENDING' | 'CONFIRMED' | 'PROCESSING' | 'COMPLETED' | 'CANCELLED';
  paymentStatus: 'NOT_REQUIRED' | 'AWAITING_PAYMENT' | 'PAID' | 'FAILED' | 'REFUNDED';
  fulfillmentStatus: 'UNFULFILLED' | 'PARTIALLY_FULFILLED' | 'FULFILLED';
  shipments: readonly { status: 'SHIPPED' | 'DELIVERED' }[];
}

export interface OrderProgress {
  /** A word or two: "Delivered". */
  label: string;
  /** One plain sentence of what it means for the shopper. */
  detail: string;
}

export function orderProgress(order: OrderProgressInput): OrderProgress {
  if (order.status === 'CANCELLED')
    return {
      label: 'Cancelled',
      detail:
        order.paymentStatus === 'PAID' || order.paymentStatus === 'REFUNDED'
          ? 'This order was cancelled. Any payment taken is refunded.'
          : order.paymentStatus === 'NOT_REQUIRED'
            ? 'This order was cancelled.'
            : 'This order was cancelled. Nothing was charged.',
    };
  if (order.paymentStatus === 'FAILED')
    return { label: 'Payment failed', detail: 'The payment did not go through. Nothing was charged.' };
  if (order.paymentStatus === 'AWAITING_PAYMENT')
    return {
      label: 'Awaiting payment',
      detail: 'The payment is not confirmed yet. We email you once it is.',
    };
  const shipped = order.shipments.length > 0;
  if (order.fulfillmentStatus === 'FULFILLED' && shipped) {
    return order.shipments.every((shipment) => shipment.status === 'DELIVERED')
      ? { label: 'Delivered', detail: 'Everything in this order was delivered.' }
      : { label: 'Shipped', detail: 'Everything in this order is on its way.' };
  }
  if (order.fulfillmentStatus === 'PARTIALLY_FULFILLED' && shipped)
    return { label: 'Partly shipped', detail: 'Some items are on their way; the rest follow.' };
  switch (order.status) {
    case 'COMPLETED':
      return { label: 'Completed', detail: 'This order is complete.' };
    case 'PROCESSING':
      return { label: 'Being prepared', detail: 'The store is preparing your order.' };
    case 'CONFIRMED':
      return { label: 'Confirmed', detail: 'The store confirmed your order and will prepare it soon.' };
    default:
      return { label: 'Order received', detail: 'The store has your order and will confirm it soon.' };
  }
}

/** The payment in plain words, or null when none was needed (a free order, an order paid offline). */
export function paymentInWords(paymentStatus: OrderProgressInput['paymentStatus']): string | null {
  switch (paymentStatus) {
    case 'PAID':
      return 'Paid';
    case 'REFUNDED':
      return 'Refunded';
    case 'AWAITING_PAYMENT':
      return 'Awaiting confirmation';
    case 'FAILED':
      return 'Failed, nothing charged';
    default:
      return null;
  }
}
