import { addMembership } from '@commerce/auth';
import type { Clock } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { DeliveryContext, EmailMessage, EmailTransport } from '@commerce/notifications';
import type { Kysely } from 'kysely';
import type { EmailTemplateScope } from '../src/email-templates/email-template-read.ts';
import type { EmailTemplateWriteScope } from '../src/email-templates/update-email-template.ts';

/** Test fixtures of the email-template services (not exported by the package). */

export const EMAIL_FROM = 'Commerce <no-reply@commerce.test>';
export const LINK_BASE = 'https://shop.example';

let sequence = 0;

/** An organization with an Owner (active, with a user) and an invited Admin (pending). */
export async function createTemplateOrganization(
  db: Kysely<Database>,
  clock: Clock,
  options: { name?: string; businessProfile?: Record<string, unknown> } = {},
): Promise<{ organizationId: string; owner: { userId: string; email: string }; invitedEmail: string }> {
  sequence += 1;
  const organizationId = `org_templates_${sequence}`;
  await db
    .insertInto('organizations')
    .values({ id: organizationId, slug: `templates-${sequence}`, name: options.name ?? 'Acme Outfitters' })
    .execute();
  if (options.businessProfile) {
    await db
      .insertInto('organization_settings')
      .values({ organization_id: organizationId, business_profile: JSON.stringify(options.businessProfile) })
      .execute();
  }
  const ownerEmail = `owner${sequence}@acme.test`;
  const userId = `usr_templates_${sequence}`;
  await db
    .insertInto('merchant_users')
    .values({
      id: userId,
      subject: `test|${ownerEmail}`,
      email: ownerEmail,
      email_verified: true,
      name: 'Owner',
      created_at: clock.now(),
      updated_at: clock.now(),
    })
    .execute();
  await addMembership(db, {
    organizationId,
    email: ownerEmail,
    role: 'Owner',
    permissions: [],
    at: clock.now(),
  });
  const invitedEmail = `invited${sequence}@acme.test`;
  await addMembership(db, {
    organizationId,
    email: invitedEmail,
    role: 'Admin',
    permissions: [],
    at: clock.now(),
  });
  return { organizationId, owner: { userId, email: ownerEmail }, invitedEmail };
}

export function readScope(organizationId: string): EmailTemplateScope {
  return { organizationId, emailFrom: EMAIL_FROM, linkBase: LINK_BASE };
}

export function writeScope(
  organizationId: string,
  owner: { userId: string; email: string },
  at: Date,
): EmailTemplateWriteScope {
  return { ...readScope(organizationId), actor: owner, at };
}

export interface SentMessage {
  message: EmailMessage;
  context: DeliveryContext;
}

/** A transport that records each message and then behaves as `behaviour` says (succeeds by default). */
export function recordingTransport(
  behaviour: () => Promise<void> = async () => {},
): EmailTransport & { sent: SentMessage[] } {
  const sent: SentMessage[] = [];
  return {
    kind: 'recording',
    sent,
    async send(message, context) {
      sent.push({ message, context });
      await behaviour();
    },
  };
}

/** Counts the queries a handle runs, to prove a read does not grow with the number of rows. */
export function countingQueries(db: Kysely<Database>): { db: Kysely<Database>; count(): number } {
  let count = 0;
  return {
    db: db.withPlugin({
      transformQuery(args) {
        count += 1;
        return args.node;
      },
      async transformResult(args) {
        return args.result;
      },
    }),
    count: () => count,
  };
}
