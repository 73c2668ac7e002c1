import { merchantBookingDetailSchema } from '@commerce/bookings';
import { itemSchema, variantSchema } from '@commerce/catalog';
import { customerProfileSchema } from '@commerce/customers';
import { fulfillmentSchema } from '@commerce/fulfillment';
import { WEBHOOK_EVENT_CATALOG, type WebhookEventType } from '@commerce/notifications/webhooks';
import { orderSchema, returnSchema } from '@commerce/orders';
import { z } from 'zod';
import { createSchema } from 'zod-openapi';

/** Each event type's `data`: the object as the merchant API reads it (docs/webhooks.md "Events"). */
const DATA_SCHEMAS: Record<WebhookEventType, z.ZodType> = {
  'order.created': orderSchema,
  'order.paid': orderSchema,
  'order.cancelled': orderSchema,
  'order.refunded': orderSchema,
  'fulfillment.shipped': fulfillmentSchema,
  'fulfillment.delivered': fulfillmentSchema,
  'return.requested': returnSchema,
  'return.updated': returnSchema,
  'booking.requested': merchantBookingDetailSchema,
  'booking.confirmed': merchantBookingDetailSchema,
  'booking.cancelled': merchantBookingDetailSchema,
  'booking.rescheduled': merchantBookingDetailSchema,
  'item.updated': itemSchema,
  'stock.low': variantSchema,
  'customer.created': customerProfileSchema,
  'webhook.test': z.object({ endpointId: z.string(), message: z.string() }),
};

/** `WebhookEvent.<type>`: the component schema name of one event type's body. */
export function webhookEventSchemaName(type: WebhookEventType): string {
  return `WebhookEvent.${type}`;
}

/**
 * The body of every event type as OpenAPI 3.0 component schemas, for the document's
 * `components.schemas` (OpenAPI 3.0 has no `webhooks` section): `WebhookEvent.<type>` each, and
 * `WebhookEvent`, one of them by `type`.
 */
export function webhookEventComponents(): Record<string, Record<string, unknown>> {
  const components: Record<string, Record<string, unknown>> = {};
  for (const entry of WEBHOOK_EVENT_CATALOG) {
    const body = z
      .object({
        id: z
          .string()
          .describe(
            'The event id (`evt_…`), also the `webhook-id` header; the same on every retry and redelivery.',
          ),
        type: z.literal(entry.type),
        createdAt: z.string().describe('When the change happened (ISO 8601).'),
        organizationSlug: z.string().describe('The store the event is about.'),
        data: DATA_SCHEMAS[entry.type].describe(`The ${entry.object} as the merchant API reads it.`),
      })
      .describe(entry.description);
    // The generator of the rest of the document, so the bodies take the same forms (normalized after).
    const { schema, components: referenced } = createSchema(body, { io: 'output', openapiVersion: '3.0.3' });
    for (const [name, component] of Object.entries(referenced)) {
      const known = components[name];
      if (known !== undefined && JSON.stringify(known) !== JSON.stringify(component))
        throw new Error(`two different webhook data schemas are named ${name}`);
      components[name] = component as Record<string, unknown>;
    }
    components[webhookEventSchemaName(entry.type)] = schema as Record<string, unknown>;
  }
  components.WebhookEvent = {
    description:
      'The JSON body of a webhook delivery, signed by Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`).',
    oneOf: WEBHOOK_EVENT_CATALOG.map((entry) => ({
      $ref: `#/components/schemas/${webhookEventSchemaName(entry.type)}`,
    })),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(
        WEBHOOK_EVENT_CATALOG.map((entry) => [
          entry.type,
          `#/components/schemas/${webhookEventSchemaName(entry.type)}`,
        ]),
      ),
    },
  };
  return components;
}
