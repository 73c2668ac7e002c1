import { newId } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import type { SubscribableWebhookEventType } from './events.ts';

export interface WebhookEventInput {
  organizationId: string;
  type: SubscribableWebhookEventType;
  /** The id of the object the event is about; its events reach each endpoint in the order queued. */
  objectId: string;
  /**
   * The object as the merchant API reads it, or a function reading it (in the same transaction),
   * called only when an endpoint is subscribed, so a change no one listens to reads nothing more.
   */
  data: unknown | (() => Promise<unknown>);
  at: Date;
}

/** The body every delivery carries (docs/webhooks.md "Payload"). */
export interface WebhookEventBody {
  id: string;
  type: string;
  createdAt: string;
  organizationSlug: string;
  data: unknown;
}

/** Rows per insert statement when many events are queued at once. */
const INSERT_BATCH = 500;

/**
 * Queues the event for every enabled endpoint of the tenant subscribed to its type, and returns the
 * event's id (undefined when no endpoint is subscribed: nothing is written). Pass the transaction of
 * the change that causes the event, so the event exists exactly when the change commits.
 */
export async function enqueueWebhookEvent(
  db: Kysely<Database>,
  input: WebhookEventInput,
): Promise<string | undefined> {
  const [id] = await enqueueWebhookEvents(db, [input]);
  return id;
}

/** Several events of one tenant, in order (one endpoint lookup); ids in the order given. */
export async function enqueueWebhookEvents(
  db: Kysely<Database>,
  inputs: readonly WebhookEventInput[],
): Promise<Array<string | undefined>> {
  if (inputs.length === 0) return [];
  const organizationId = inputs[0]!.organizationId;
  if (inputs.some((input) => input.organizationId !== organizationId))
    throw new Error('enqueueWebhookEvents takes the events of one organization');
  const types = [...new Set(inputs.map((input) => input.type))];
  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'ENABLED')
    .where(sql<boolean>`events ?| ${sql.val(types)}::text[]`)
    .orderBy('id')
    .execute();
  if (endpoints.length === 0) return inputs.map(() => undefined);
  const organization = await db
    .selectFrom('organizations')
    .select('slug')
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const rows = [];
  const ids: Array<string | undefined> = [];
  for (const input of inputs) {
    const subscribed = endpoints.filter((endpoint) => endpoint.events.includes(input.type));
    if (subscribed.length === 0) {
      ids.push(undefined);
      continue;
    }
    const eventId = newId('evt', input.at);
    ids.push(eventId);
    const body = eventBody({
      id: eventId,
      type: input.type,
      createdAt: input.at.toISOString(),
      organizationSlug: organization.slug,
      data: typeof input.data === 'function' ? await (input.data as () => Promise<unknown>)() : input.data,
    });
    for (const endpoint of subscribed)
      rows.push({
        organization_id: organizationId,
        id: newId('whd', input.at),
        endpoint_id: endpoint.id,
        event_id: eventId,
        event_type: input.type,
        ordering_key: input.objectId,
        body,
        next_attempt_at: input.at,
        created_at: input.at,
      });
  }
  for (let start = 0; start < rows.length; start += INSERT_BATCH)
    await db
      .insertInto('webhook_deliveries')
      .values(rows.slice(start, start + INSERT_BATCH))
      .execute();
  return ids;
}

/** The delivery body, serialized once: the exact bytes signed and sent. */
export function eventBody(body: WebhookEventBody): string {
  return JSON.stringify(body);
}
