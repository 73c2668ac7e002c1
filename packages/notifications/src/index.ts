export { deliverOutboxRowNow, enqueueEmailForImmediateDelivery } from './deliver-now.ts';
export { createDevTransport, pruneDevEmails } from './dev-transport.ts';
export { type EnqueueEmailInput, enqueueEmail, enqueueEmails } from './enqueue-email.ts';
export { PermanentDeliveryError, TransientDeliveryError } from './errors.ts';
export { createEmailTransportFromConfig, startOutboxWorkerFromConfig } from './start-outbox-worker.ts';
export {
  EMAIL_TEMPLATE_TYPES,
  type EmailTemplateDefinition,
  findEmailTemplateDefinition,
  listEmailTemplateDefinitions,
} from './templates/registry.ts';
export { renderEmailTemplateSample } from './templates/render.ts';
export {
  type CustomerEmailConfig,
  customerEmailConfigOf,
  customerLink,
  defaultSlots,
  enqueueTemplatedEmail,
  enqueueTemplatedEmails,
  fromAddressOf,
  fromHeader,
  loadTemplateOrganization,
  overrideSlots,
  resolveSlots,
  SLOT_COLUMNS,
  type TemplateOrganization,
  tenantLinkBase,
} from './templates/sender.ts';
export {
  COPY_SLOTS,
  EMAIL_TEMPLATE_SLOTS,
  type EmailTemplateSlot,
  type EmailTemplateSlots,
  type EmailTemplateSlotsPatch,
  emailTemplateSlotsPatchSchema,
  findCopyIssues,
  findMissingRequiredVariables,
  SLOT_MAX_LENGTH,
} from './templates/slots.ts';
export {
  type DeliveryContext,
  type EmailMessage,
  type EmailTransport,
  type Logger,
  silentLogger,
} from './types.ts';
