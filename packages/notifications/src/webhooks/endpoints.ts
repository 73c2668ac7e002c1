import { AppError, newId, type Page, toPage } from '@commerce/core';
import {
  type AuditActor,
  type Database,
  inTransaction,
  lockForTransaction,
  recordAudit,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import { eventBody } from './enqueue-webhook-event.ts';
import type {
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  WebhookDeliveryRead,
  WebhookEndpointRead,
  WebhookEndpointWithSecret,
} from './schemas.ts';
import { deriveEndpointSecret, newSecretSalt, PREVIOUS_SECRET_OVERLAP_MS } from './secrets.ts';
import { type HostResolver, type WebhookUrlPolicy, webhookUrlProblemsResolved } from './url-safety.ts';

/** The most webhook endpoints one organization may have. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

export interface WebhookWriteContext {
  organizationId: string;
  actor: AuditActor;
  at: Date;
}

/** What the server decides for every endpoint: its signing key and where URLs may point. */
export interface WebhookSettings {
  /** WEBHOOK_SIGNING_KEY; undefined: webhooks are not configured (503). */
  signingKey: string | undefined;
  policy: WebhookUrlPolicy;
  resolve?: HostResolver;
}

function requireSigningKey(settings: WebhookSettings): string {
  if (settings.signingKey === undefined)
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'Outbound webhooks are not configured on this server (WEBHOOK_SIGNING_KEY is unset)',
    );
  return settings.signingKey;
}

export function toWebhookEndpointRead(row: WebhookEndpointRow, now: Date): WebhookEndpointRead {
  const overlapping =
    row.previous_secret_expires_at !== null && row.previous_secret_expires_at.getTime() > now.getTime();
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEndpointRead['events'],
    description: row.description,
    status: row.status,
    disabledReason:
      row.status === 'DISABLED' ? ((row.disabled_reason ?? 'MERCHANT') as 'FAILING' | 'MERCHANT') : null,
    previousSecretExpiresAt: overlapping ? row.previous_secret_expires_at!.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toWebhookDeliveryRead(row: WebhookDeliveryRow): WebhookDeliveryRead {
  const open = row.status === 'PENDING' || row.status === 'PROCESSING';
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.response_status,
    responseBody: row.response_body,
    durationMs: row.duration_ms,
    lastError: row.last_error,
    nextAttemptAt: open ? row.next_attempt_at.toISOString() : null,
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

/**
 * Refuses a URL webhooks may not be sent to (400 `VALIDATION_FAILED` on `url`), resolving its host:
 * call it before any transaction, so no connection or lock waits on DNS.
 */
export async function assertWebhookUrlAllowed(url: string, settings: WebhookSettings): Promise<void> {
  const problems = await webhookUrlProblemsResolved(url, settings.policy, settings.resolve);
  if (problems.length > 0)
    throw AppError.validation(
      problems.map((message) => ({ path: 'url', message })),
      `The webhook URL is not allowed: it ${problems.join('; ')}`,
    );
}

/** Serializes the endpoint writes of one organization, so the limit holds under concurrent creates. */
async function lockTenantWebhookEndpoints(trx: Kysely<Database>, organizationId: string): Promise<void> {
  await lockForTransaction(trx, 'webhook-endpoints', organizationId);
}

async function findEndpoint(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<WebhookEndpointRow> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .$if(options.forUpdate === true, (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!row) throw AppError.notFound('Webhook endpoint not found');
  return row;
}

/** Audit metadata: the URL's host only (its path or query may hold a receiver's token). */
function auditFacts(row: { url: string; events: unknown }): Record<string, unknown> {
  return { host: new URL(row.url).host, events: row.events };
}

/**
 * Creates an endpoint with a new secret, shown in this answer only. At most 20 per organization
 * (`409 WEBHOOK_ENDPOINT_LIMIT_REACHED`), counted under a per-tenant lock. Audited as
 * `webhook_endpoint.created`.
 */
export async function createWebhookEndpoint(
  db: Kysely<Database>,
  ctx: WebhookWriteContext,
  settings: WebhookSettings,
  input: CreateWebhookEndpointInput,
  options: { urlChecked?: boolean } = {},
): Promise<WebhookEndpointWithSecret> {
  const signingKey = requireSigningKey(settings);
  // DNS before the transaction: no network wait while holding the lock. A caller that runs this
  // inside a transaction of its own (an idempotent create) checks the URL before it opens it.
  if (!options.urlChecked) await assertWebhookUrlAllowed(input.url, settings);
  const id = newId('whe', ctx.at);
  const salt = newSecretSalt();
  return inTransaction(db, async (trx) => {
    await lockTenantWebhookEndpoints(trx, ctx.organizationId);
    const { count } = await trx
      .selectFrom('webhook_endpoints')
      .select(sql<string | number>`count(*)`.as('count'))
      .where('organization_id', '=', ctx.organizationId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= MAX_WEBHOOK_ENDPOINTS)
      throw new AppError('WEBHOOK_ENDPOINT_LIMIT_REACHED', undefined, { limit: MAX_WEBHOOK_ENDPOINTS });
    const row = await trx
      .insertInto('webhook_endpoints')
      .values({
        organization_id: ctx.organizationId,
        id,
        url: input.url,
        events: JSON.stringify(input.events),
        description: input.description ?? null,
        status: 'ENABLED',
        secret_salt: salt,
        created_at: ctx.at,
        updated_at: ctx.at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'webhook_endpoint.created',
      targetType: 'webhook_endpoint',
      targetId: id,
      metadata: auditFacts(row),
      at: ctx.at,
    });
    return { ...toWebhookEndpointRead(row, ctx.at), secret: deriveEndpointSecret(signingKey, salt) };
  });
}

/** The endpoint with its current secret again (a create replayed under its idempotency key). */
export async function readWebhookEndpointWithSecret(
  db: Kysely<Database>,
  organizationId: string,
  settings: WebhookSettings,
  id: string,
  now: Date,
): Promise<WebhookEndpointWithSecret> {
  const signingKey = requireSigningKey(settings);
  const row = await findEndpoint(db, organizationId, id);
  return { ...toWebhookEndpointRead(row, now), secret: deriveEndpointSecret(signingKey, row.secret_salt) };
}

export async function getWebhookEndpoint(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  now: Date,
): Promise<WebhookEndpointRead> {
  return toWebhookEndpointRead(await findEndpoint(db, organizationId, id), now);
}

/** Oldest first, keyset-paginated by id (ids sort by creation time). */
export async function listWebhookEndpoints(
  db: Kysely<Database>,
  organizationId: string,
  query: { limit: number; cursor?: string | undefined },
  now: Date,
): Promise<Page<WebhookEndpointRead>> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .$if(query.cursor !== undefined, (qb) => qb.where('id', '>', query.cursor!))
    .orderBy('id')
    .limit(query.limit + 1)
    .execute();
  // Only an empty page checks the cursor: the end of the list, or a cursor naming no endpoint (400).
  if (rows.length === 0 && query.cursor !== undefined) {
    const known = await db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', query.cursor)
      .executeTakeFirst();
    if (!known) throw AppError.validation([{ path: 'cursor', message: 'does not name a webhook endpoint' }]);
  }
  const page = toPage(rows, query.limit);
  return { data: page.data.map((row) => toWebhookEndpointRead(row, now)), nextCursor: page.nextCursor };
}

/**
 * Changes the URL (checked again), the events, the description or the status. Enabling clears the
 * failure record, so a merchant's fix gets the full five days again. Audited as
 * `webhook_endpoint.updated` with the fields changed; a change that changes nothing writes nothing.
 */
export async function updateWebhookEndpoint(
  db: Kysely<Database>,
  ctx: WebhookWriteContext,
  settings: WebhookSettings,
  input: UpdateWebhookEndpointInput,
): Promise<WebhookEndpointRead> {
  if (input.url !== undefined) await assertWebhookUrlAllowed(input.url, settings);
  return inTransaction(db, async (trx) => {
    const current = await findEndpoint(trx, ctx.organizationId, input.id, { forUpdate: true });
    const changes: Record<string, unknown> = {};
    if (input.url !== undefined && input.url !== current.url) changes.url = input.url;
    if (input.events !== undefined && JSON.stringify(input.events) !== JSON.stringify(current.events))
      changes.events = JSON.stringify(input.events);
    if (input.description !== undefined && input.description !== current.description)
      changes.description = input.description;
    if (input.status !== undefined && input.status !== current.status) {
      changes.status = input.status;
      changes.disabled_reason = input.status === 'DISABLED' ? 'MERCHANT' : null;
      if (input.status === 'ENABLED') changes.failing_since = null;
    }
    const fields = Object.keys(changes).filter(
      (field) => field !== 'disabled_reason' && field !== 'failing_since',
    );
    if (fields.length === 0) return toWebhookEndpointRead(current, ctx.at);
    const row = await trx
      .updateTable('webhook_endpoints')
      .set({ ...changes, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', input.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'webhook_endpoint.updated',
      targetType: 'webhook_endpoint',
      targetId: input.id,
      metadata: { fields, ...auditFacts(row), status: row.status },
      at: ctx.at,
    });
    return toWebhookEndpointRead(row, ctx.at);
  });
}

/** Deletes the endpoint and its deliveries (pending ones are not sent). Audited as `webhook_endpoint.deleted`. */
export async function deleteWebhookEndpoint(
  db: Kysely<Database>,
  ctx: WebhookWriteContext,
  id: string,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const current = await findEndpoint(trx, ctx.organizationId, id, { forUpdate: true });
    await trx
      .deleteFrom('webhook_endpoints')
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'webhook_endpoint.deleted',
      targetType: 'webhook_endpoint',
      targetId: id,
      metadata: auditFacts(current),
      at: ctx.at,
    });
  });
}

/**
 * A new secret, returned in this answer only; the one it replaces keeps signing beside it for 24
 * hours (each delivery then carries both signatures), so receivers can switch without losing an
 * event. A second rotation within the overlap ends the oldest secret at once. Audited as
 * `webhook_endpoint.secret_rotated`.
 */
export async function rotateWebhookEndpointSecret(
  db: Kysely<Database>,
  ctx: WebhookWriteContext,
  settings: WebhookSettings,
  id: string,
): Promise<WebhookEndpointWithSecret> {
  const signingKey = requireSigningKey(settings);
  return inTransaction(db, async (trx) => {
    const current = await findEndpoint(trx, ctx.organizationId, id, { forUpdate: true });
    const salt = newSecretSalt();
    const previousExpiresAt = new Date(ctx.at.getTime() + PREVIOUS_SECRET_OVERLAP_MS);
    const row = await trx
      .updateTable('webhook_endpoints')
      .set({
        secret_salt: salt,
        previous_secret_salt: current.secret_salt,
        previous_secret_expires_at: previousExpiresAt,
        updated_at: ctx.at,
      })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'webhook_endpoint.secret_rotated',
      targetType: 'webhook_endpoint',
      targetId: id,
      metadata: { previousSecretExpiresAt: previousExpiresAt.toISOString() },
      at: ctx.at,
    });
    return { ...toWebhookEndpointRead(row, ctx.at), secret: deriveEndpointSecret(signingKey, salt) };
  });
}

/** The endpoint's deliveries, newest first, keyset-paginated by id. */
export async function listWebhookDeliveries(
  db: Kysely<Database>,
  organizationId: string,
  query: { id: string; limit: number; cursor?: string | undefined },
): Promise<Page<WebhookDeliveryRead>> {
  await findEndpoint(db, organizationId, query.id);
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('endpoint_id', '=', query.id)
    .$if(query.cursor !== undefined, (qb) => qb.where('id', '<', query.cursor!))
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  if (rows.length === 0 && query.cursor !== undefined) {
    const known = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('endpoint_id', '=', query.id)
      .where('id', '=', query.cursor)
      .executeTakeFirst();
    if (!known)
      throw AppError.validation([{ path: 'cursor', message: 'does not name a delivery of the endpoint' }]);
  }
  const page = toPage(rows, query.limit);
  return { data: page.data.map(toWebhookDeliveryRead), nextCursor: page.nextCursor };
}

async function assertEnabled(endpoint: WebhookEndpointRow): Promise<void> {
  if (endpoint.status !== 'ENABLED')
    throw new AppError('INVALID_STATE_TRANSITION', 'The webhook endpoint is disabled; enable it first', {
      status: endpoint.status,
    });
}

/**
 * Queues the delivery's event again for its endpoint, as a new delivery with the same event id
 * (`webhook-id`) and body, due now, outside the per-object order. Audited as
 * `webhook_delivery.redelivered`.
 */
export async function redeliverWebhookDelivery(
  db: Kysely<Database>,
  ctx: WebhookWriteContext,
  input: { id: string; deliveryId: string },
): Promise<WebhookDeliveryRead> {
  return inTransaction(db, async (trx) => {
    const endpoint = await findEndpoint(trx, ctx.organizationId, input.id);
    const original = await trx
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('organization_id', '=', ctx.organizationId)
      .where('endpoint_id', '=', input.id)
      .where('id', '=', input.deliveryId)
      .executeTakeFirst();
    if (!original) throw AppError.notFound('Webhook delivery not found');
    await assertEnabled(endpoint);
    const row = await trx
      .insertInto('webhook_deliveries')
      .values({
        organization_id: ctx.organizationId,
        id: newId('whd', ctx.at),
        endpoint_id: input.id,
        event_id: original.event_id,
        event_type: original.event_type,
        ordering_key: null,
        body: original.body,
        next_attempt_at: ctx.at,
        created_at: ctx.at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'webhook_delivery.redelivered',
      targetType: 'webhook_endpoint',
      targetId: input.id,
      metadata: { deliveryId: row.id, originalDeliveryId: original.id, eventId: original.event_id },
      at: ctx.at,
    });
    return toWebhookDeliveryRead(row);
  });
}

/** Queues a `webhook.test` event for this endpoint only. Audited as `webhook_endpoint.tested`. */
export async function sendWebhookTestEvent(
  db: Kysely<Database>,
  ctx: WebhookWriteContext,
  id: string,
): Promise<WebhookDeliveryRead> {
  return inTransaction(db, async (trx) => {
    const endpoint = await findEndpoint(trx, ctx.organizationId, id);
    await assertEnabled(endpoint);
    const organization = await trx
      .selectFrom('organizations')
      .select('slug')
      .where('id', '=', ctx.organizationId)
      .executeTakeFirstOrThrow();
    const eventId = newId('evt', ctx.at);
    const row = await trx
      .insertInto('webhook_deliveries')
      .values({
        organization_id: ctx.organizationId,
        id: newId('whd', ctx.at),
        endpoint_id: id,
        event_id: eventId,
        event_type: 'webhook.test',
        ordering_key: null,
        body: eventBody({
          id: eventId,
          type: 'webhook.test',
          createdAt: ctx.at.toISOString(),
          organizationSlug: organization.slug,
          data: { endpointId: id, message: 'A test event sent from the merchant API.' },
        }),
        next_attempt_at: ctx.at,
        created_at: ctx.at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'webhook_endpoint.tested',
      targetType: 'webhook_endpoint',
      targetId: id,
      metadata: { deliveryId: row.id, eventId },
      at: ctx.at,
    });
    return toWebhookDeliveryRead(row);
  });
}
