import { type Clock, newId, systemClock } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { type EmailTransport, type Logger, recipientDomain } from './types.ts';

/**
 * The transport used while SMTP_URL is unset: each
 * message is recorded in `dev_emails`, where a developer reads it, and one
 * log line says that it was sent. The line carries metadata only; the body
 * holds sign-in links and codes, which must not reach logs.
 */
export function createDevTransport(
  db: Kysely<Database>,
  logger: Logger,
  clock: Clock = systemClock,
): EmailTransport {
  return {
    kind: 'dev',
    async send(message, context) {
      const id = newId('eml', clock.now());
      await db
        .insertInto('dev_emails')
        .values({
          organization_id: context.organizationId,
          id,
          outbox_id: context.outboxId,
          to_address: message.to,
          subject: message.subject,
          text_body: message.text,
          html_body: message.html ?? null,
          created_at: clock.now(),
        })
        .execute();
      logger.info(
        {
          devEmailId: id,
          outboxId: context.outboxId,
          organizationId: context.organizationId,
          templateType: context.templateType,
          recipientDomain: recipientDomain(message.to),
          subject: message.subject,
        },
        'email recorded by the development transport',
      );
    },
  };
}

/**
 * How long the development transport keeps a message. Its body holds sign-in links and codes, so
 * it is not kept for good: a developer reads a message within minutes.
 */
export const DEV_EMAIL_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Deletes development-transport messages older than `DEV_EMAIL_RETENTION_MS`, in every organization. */
export async function pruneDevEmails(db: Kysely<Database>, at: Date): Promise<number> {
  const result = await db
    .deleteFrom('dev_emails')
    .where('created_at', '<', new Date(at.getTime() - DEV_EMAIL_RETENTION_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
