export {
  assertWebhookUrlAllowed,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  MAX_WEBHOOK_ENDPOINTS,
  readWebhookEndpointWithSecret,
  redeliverWebhookDelivery,
  rotateWebhookEndpointSecret,
  sendWebhookTestEvent,
  updateWebhookEndpoint,
  type WebhookSettings,
  type WebhookWriteContext,
} from './endpoints.ts';
export {
  enqueueWebhookEvent,
  enqueueWebhookEvents,
  type WebhookEventBody,
  type WebhookEventInput,
} from './enqueue-webhook-event.ts';
export {
  SUBSCRIBABLE_WEBHOOK_EVENT_TYPES,
  type SubscribableWebhookEventType,
  WEBHOOK_EVENT_CATALOG,
  type WebhookEventType,
} from './events.ts';
export {
  createWebhookEndpointInputSchema,
  redeliverInputSchema,
  updateWebhookEndpointInputSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliverySchema,
  webhookEndpointActionInputSchema,
  webhookEndpointListQuerySchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
  webhookEventTypeSchema,
} from './schemas.ts';
export { deriveEndpointSecret, PREVIOUS_SECRET_OVERLAP_MS } from './secrets.ts';
export { type RunningWebhookWorker, startWebhookWorkerFromConfig } from './start-webhook-worker.ts';
export {
  type HostResolver,
  isForbiddenAddress,
  type WebhookUrlPolicy,
  webhookUrlProblems,
  webhookUrlProblemsResolved,
} from './url-safety.ts';
export {
  createWebhookWorker,
  type WebhookRunResult,
  type WebhookWorker,
  type WebhookWorkerOptions,
  webhookRetryDelayMs,
} from './webhook-worker.ts';
