/**
 * The outbound webhook event catalog (docs/webhooks.md "Events"): every type a merchant can
 * subscribe an endpoint to, what causes it, and the object `data` holds. One list, read by the
 * endpoint schemas, the OpenAPI document and the docs.
 */
export const WEBHOOK_EVENT_CATALOG = [
  {
    type: 'order.created',
    object: 'order',
    description: 'An order was placed (checkout, or created by the merchant).',
  },
  { type: 'order.paid', object: 'order', description: "The order's payment succeeded." },
  { type: 'order.cancelled', object: 'order', description: 'The order was cancelled.' },
  {
    type: 'order.refunded',
    object: 'order',
    description: 'Money was refunded on the order, in part or whole.',
  },
  {
    type: 'fulfillment.shipped',
    object: 'fulfillment',
    description: 'A fulfillment was handed to the carrier.',
  },
  { type: 'fulfillment.delivered', object: 'fulfillment', description: 'A fulfillment was delivered.' },
  { type: 'return.requested', object: 'return', description: 'A customer or the merchant opened a return.' },
  { type: 'return.updated', object: 'return', description: "A return's status changed." },
  { type: 'booking.requested', object: 'booking', description: 'A booking request awaits the merchant.' },
  { type: 'booking.confirmed', object: 'booking', description: 'A booking was confirmed.' },
  { type: 'booking.cancelled', object: 'booking', description: 'A booking was cancelled.' },
  { type: 'booking.rescheduled', object: 'booking', description: 'A booking moved to another time.' },
  { type: 'item.updated', object: 'item', description: 'An item was changed.' },
  {
    type: 'stock.low',
    object: 'variant',
    description:
      "A tracked variant's stock fell to or below its item's low-stock threshold (the store's `notifications.lowStockThreshold` when the item sets none).",
  },
  { type: 'customer.created', object: 'customer', description: 'A customer account was created.' },
  {
    type: 'webhook.test',
    object: 'webhook_endpoint',
    description: 'Sent by `POST /merchant/webhook-endpoints/{id}/test`; never subscribed to.',
  },
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_CATALOG)[number]['type'];

/** The types an endpoint may subscribe to (`webhook.test` goes to the endpoint it tests only). */
export const SUBSCRIBABLE_WEBHOOK_EVENT_TYPES = WEBHOOK_EVENT_CATALOG.map((entry) => entry.type).filter(
  (type): type is Exclude<WebhookEventType, 'webhook.test'> => type !== 'webhook.test',
);
export type SubscribableWebhookEventType = (typeof SUBSCRIBABLE_WEBHOOK_EVENT_TYPES)[number];
