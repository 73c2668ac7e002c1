import { t } from '../i18n/index.ts';

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
      label: t('progress.cancelled'),
      detail:
        order.paymentStatus === 'PAID' || order.paymentStatus === 'REFUNDED'
          ? t('progress.cancelledRefunded')
          : order.paymentStatus === 'NOT_REQUIRED'
            ? t('progress.cancelledFree')
            : t('progress.cancelledNothingCharged'),
    };
  if (order.paymentStatus === 'FAILED')
    return { label: t('progress.paymentFailed'), detail: t('progress.paymentFailedDetail') };
  if (order.paymentStatus === 'AWAITING_PAYMENT')
    return { label: t('progress.awaitingPayment'), detail: t('progress.awaitingPaymentDetail') };
  const shipped = order.shipments.length > 0;
  if (order.fulfillmentStatus === 'FULFILLED' && shipped) {
    return order.shipments.every((shipment) => shipment.status === 'DELIVERED')
      ? { label: t('progress.delivered'), detail: t('progress.deliveredDetail') }
      : { label: t('progress.shipped'), detail: t('progress.shippedDetail') };
  }
  if (order.fulfillmentStatus === 'PARTIALLY_FULFILLED' && shipped)
    return { label: t('progress.partlyShipped'), detail: t('progress.partlyShippedDetail') };
  switch (order.status) {
    case 'COMPLETED':
      return { label: t('progress.completed'), detail: t('progress.completedDetail') };
    case 'PROCESSING':
      return { label: t('progress.preparing'), detail: t('progress.preparingDetail') };
    case 'CONFIRMED':
      return { label: t('progress.confirmed'), detail: t('progress.confirmedDetail') };
    default:
      return { label: t('progress.received'), detail: t('progress.receivedDetail') };
  }
}

/** The payment in plain words, or null when none was needed (a free order, an order paid offline). */
export function paymentInWords(paymentStatus: OrderProgressInput['paymentStatus']): string | null {
  switch (paymentStatus) {
    case 'PAID':
      return t('payment.paid');
    case 'REFUNDED':
      return t('payment.refunded');
    case 'AWAITING_PAYMENT':
      return t('payment.awaiting');
    case 'FAILED':
      return t('payment.failed');
    default:
      return null;
  }
}
