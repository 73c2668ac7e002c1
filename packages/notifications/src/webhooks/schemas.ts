import { pageQuerySchema } from '@commerce/core';
import { z } from 'zod';
import { SUBSCRIBABLE_WEBHOOK_EVENT_TYPES, type SubscribableWebhookEventType } from './events.ts';
import { WEBHOOK_URL_MAX_LENGTH } from './url-safety.ts';

export const webhookEndpointIdSchema = z
  .string()
  .regex(/^whe_[0-9A-Z]{26}$/, 'must be a webhook endpoint id (whe_…)')
  .describe('The webhook endpoint id (`whe_…`).');
const deliveryIdSchema = z
  .string()
  .regex(/^whd_[0-9A-Z]{26}$/, 'must be a webhook delivery id (whd_…)')
  .describe('The delivery id (`whd_…`).');

export const webhookEventTypeSchema = z
  .enum(SUBSCRIBABLE_WEBHOOK_EVENT_TYPES as [SubscribableWebhookEventType, ...SubscribableWebhookEventType[]])
  .describe('An event type of the catalog (docs/webhooks.md "Events").');

const urlSchema = z
  .string()
  .trim()
  .min(1)
  .max(WEBHOOK_URL_MAX_LENGTH)
  .describe(
    'Where events are POSTed. https only in production; no credentials; hosts that are or resolve to loopback, private, link-local, multicast or metadata addresses are refused (unless the server allows private hosts).',
  );
/** Each type once, in catalog order. */
const eventsSchema = z
  .array(webhookEventTypeSchema)
  .min(1)
  .max(SUBSCRIBABLE_WEBHOOK_EVENT_TYPES.length * 2)
  .transform((events) => SUBSCRIBABLE_WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type)))
  .describe('The event types sent to the endpoint (at least one).');
const descriptionSchema = z
  .string()
  .trim()
  .max(500)
  .describe('A note for the merchant, up to 500 characters.');

export const createWebhookEndpointInputSchema = z
  .object({ url: urlSchema, events: eventsSchema, description: descriptionSchema.nullish() })
  .strict();
export type CreateWebhookEndpointInput = z.infer<typeof createWebhookEndpointInputSchema>;

export const updateWebhookEndpointInputSchema = z
  .object({
    id: webhookEndpointIdSchema,
    url: urlSchema.optional(),
    events: eventsSchema.optional(),
    description: descriptionSchema.nullable().optional(),
    status: z
      .enum(['ENABLED', 'DISABLED'])
      .optional()
      .describe('DISABLED stops deliveries; ENABLED starts them again (and clears the failure record).'),
  })
  .strict();
export type UpdateWebhookEndpointInput = z.infer<typeof updateWebhookEndpointInputSchema>;

export const webhookEndpointActionInputSchema = z.object({ id: webhookEndpointIdSchema }).strict();

export const webhookEndpointListQuerySchema = pageQuerySchema.strict();

export const webhookDeliveryListQuerySchema = pageQuerySchema
  .extend({ id: webhookEndpointIdSchema })
  .strict();

export const redeliverInputSchema = z
  .object({ id: webhookEndpointIdSchema, deliveryId: deliveryIdSchema })
  .strict();

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  description: z.string().nullable(),
  status: z.enum(['ENABLED', 'DISABLED']),
  disabledReason: z
    .enum(['FAILING', 'MERCHANT'])
    .nullable()
    .describe(
      'FAILING: disabled by the server after every delivery failed for 5 days; MERCHANT: by a member.',
    ),
  previousSecretExpiresAt: z
    .string()
    .nullable()
    .describe('While a rotated-out secret still signs beside the current one: until when.'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpointRead = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({
  secret: z.string().describe('The `whsec_…` signing secret. Shown in this answer only: keep it now.'),
});
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;

export const webhookDeliverySchema = z.object({
  id: z.string(),
  endpointId: z.string(),
  eventId: z.string().describe('The event id, sent as `webhook-id` (the same on a redelivery).'),
  eventType: z.string(),
  status: z.enum(['PENDING', 'PROCESSING', 'DELIVERED', 'FAILED']),
  attempts: z.number().int(),
  responseStatus: z
    .number()
    .int()
    .nullable()
    .describe("The last attempt's HTTP status; null without an answer."),
  responseBody: z
    .string()
    .nullable()
    .describe("The start of the last attempt's answer (at most 2048 characters)."),
  durationMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z
    .string()
    .nullable()
    .describe('When the next attempt is due; null once delivered or failed.'),
  lastAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type WebhookDeliveryRead = z.infer<typeof webhookDeliverySchema>;
