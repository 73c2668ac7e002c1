import type { Clock } from '@commerce/core';
import type { Database, DatabaseHandle, OutboxRow } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import type { Kysely } from 'kysely';
import { enqueueEmail } from '../src/enqueue-email.ts';
import type { DeliveryContext, EmailMessage, EmailTransport, Logger } from '../src/types.ts';

export const ORG_ID = 'org_notifications_test';

/** An isolated migrated database holding one organization, which outbox rows reference. */
export async function createNotificationsTestDatabase(): Promise<DatabaseHandle> {
  const handle = await createTestDatabase();
  await handle.db
    .insertInto('organizations')
    .values({ id: ORG_ID, slug: 'notifications', name: 'N' })
    .execute();
  return handle;
}

let sequence = 0;

/** Queues a sign-in style email whose body holds a code, the kind of secret the outbox must shed. */
export async function enqueueSignInEmail(
  db: Kysely<Database>,
  clock: Clock,
  overrides: { to?: string } = {},
): Promise<string> {
  sequence += 1;
  return enqueueEmail(db, {
    organizationId: ORG_ID,
    templateType: 'customer.sign_in_code',
    to: overrides.to ?? `customer${sequence}@Example.COM`,
    subject: 'Your sign-in code',
    text: `Your code is 4${String(sequence).padStart(5, '0')}`,
    metadata: { locale: 'en' },
    at: clock.now(),
  });
}

export async function readOutboxRow(db: Kysely<Database>, id: string): Promise<OutboxRow> {
  return db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export interface SentMessage {
  message: EmailMessage;
  context: DeliveryContext;
}

/** A transport that records every call and behaves as `behaviour` says (succeeds by default). */
export function recordingTransport(
  behaviour: (message: EmailMessage, context: DeliveryContext) => Promise<void> = async () => {},
): EmailTransport & { sent: SentMessage[]; callsById: Map<string, number> } {
  const sent: SentMessage[] = [];
  const callsById = new Map<string, number>();
  return {
    kind: 'recording',
    sent,
    callsById,
    async send(message, context) {
      sent.push({ message, context });
      callsById.set(context.outboxId, (callsById.get(context.outboxId) ?? 0) + 1);
      await behaviour(message, context);
    },
  };
}

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg: string | undefined;
}

export function recordingLogger(): Logger & { lines: LogLine[]; text(): string } {
  const lines: LogLine[] = [];
  return {
    lines,
    text: () => JSON.stringify(lines),
    info: (obj, msg) => lines.push({ level: 'info', obj, msg }),
    warn: (obj, msg) => lines.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => lines.push({ level: 'error', obj, msg }),
  };
}
