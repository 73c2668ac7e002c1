import { AppError, type Clock, formatIssuePath } from '@commerce/core';
import type { Database } from '@commerce/db';
import {
  deliverOutboxRowNow,
  type EmailTransport,
  enqueueEmailForImmediateDelivery,
  fromHeader,
  type Logger,
} from '@commerce/notifications';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import {
  type EmailTemplateScope,
  renderResolvedTemplate,
  requireEmailTemplateDefinition,
} from './email-template-read.ts';
import { resolveDraft } from './preview-email-template.ts';
import { type SendTestResult, sendTestEmailTemplateBodySchema } from './schemas.ts';

export interface SendTestScope extends EmailTemplateScope {
  /** The signed-in merchant user: the default recipient, and who asked (kept in the outbox metadata as an id). */
  requester: { userId: string; email: string };
  clock: Clock;
  logger?: Logger;
}

export const TEST_SUBJECT_PREFIX = '[Test] ';

/**
 * Sends the resolved sample of `type` (saved override plus an optional draft,
 * with sample values and links), its subject prefixed "[Test] ", to the
 * signed-in user (`SELF`, the default) or to a `CUSTOM_ADDRESS` the email
 * policy accepts. The message goes through the outbox and is delivered at
 * once, outside any transaction, so the answer reports the provider's outcome:
 * 502 PROVIDER_ERROR or 503 PROVIDER_UNAVAILABLE, and the row is not retried.
 */
export async function sendTestEmailTemplate(
  db: Kysely<Database>,
  transport: EmailTransport,
  scope: SendTestScope,
  type: string,
  body: unknown,
): Promise<SendTestResult> {
  requireEmailTemplateDefinition(type);
  const input = parseBody(body);
  const { definition, organization, slots } = await resolveDraft(db, scope, type, input.draft);
  const to =
    input.mode === 'CUSTOM_ADDRESS'
      ? await assertRecipientAllowed(db, scope.organizationId, input.to ?? '')
      : scope.requester.email;

  const { sample, sender } = renderResolvedTemplate(definition, slots, organization, scope);
  const at = scope.clock.now();
  const outboxId = await db.transaction().execute((trx) =>
    enqueueEmailForImmediateDelivery(trx, {
      organizationId: scope.organizationId,
      templateType: definition.type,
      to,
      subject: `${TEST_SUBJECT_PREFIX}${sample.subject}`,
      text: sample.text,
      html: sample.html,
      from: fromHeader(sender.fromName, sender.fromAddress),
      ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
      metadata: {
        purpose: 'email_template.send_test',
        mode: input.mode,
        requestedBy: scope.requester.userId,
      },
      at,
    }),
  );
  await deliverOutboxRowNow(
    db,
    transport,
    { organizationId: scope.organizationId, outboxId },
    scope.clock,
    scope.logger ? { logger: scope.logger } : {},
  );
  return { status: 'SENT', to, outboxId };
}

function parseBody(body: unknown) {
  const parsed = sendTestEmailTemplateBodySchema.safeParse(body ?? {});
  if (!parsed.success) {
    throw AppError.validation(
      parsed.error.issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message })),
    );
  }
  return parsed.data;
}

/**
 * The server's email policy for a `CUSTOM_ADDRESS` test: a syntactically
 * valid address that is the email of a membership of this organization
 * (pending or active) or the business profile's `supportEmail`, compared
 * case-insensitively. Anything else is 422 EMAIL_POLICY_REJECTED, decided
 * before any provider I/O; the refused address is neither logged nor echoed.
 */
async function assertRecipientAllowed(
  db: Kysely<Database>,
  organizationId: string,
  candidate: string,
): Promise<string> {
  const address = z.email().max(320).safeParse(candidate);
  if (!address.success) throw policyRejection();
  const email = address.data;
  const allowed = await db
    .selectFrom('memberships')
    .select(sql<number>`1`.as('allowed'))
    .where('organization_id', '=', organizationId)
    .where('email', '=', email)
    .unionAll(
      db
        .selectFrom('organization_settings')
        .select(sql<number>`1`.as('allowed'))
        .where('organization_id', '=', organizationId)
        .where(sql<string>`lower(business_profile->>'supportEmail')`, '=', email.toLowerCase()),
    )
    .limit(1)
    .executeTakeFirst();
  if (!allowed) throw policyRejection();
  return email;
}

function policyRejection(): AppError {
  return new AppError(
    'EMAIL_POLICY_REJECTED',
    "Test emails go only to this organization's members or its support email",
  );
}
