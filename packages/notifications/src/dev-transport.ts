import { type Clock, newId, systemClock } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { type EmailTransport, type Logger, recipientDomain } from './types.ts';

/**
 * The transport used while SMTP_URL is unset (CONTRACT.md section 8): each
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
