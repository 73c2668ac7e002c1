import { AppError, formatIssuePath, newId } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { type EmailMessage, recipientDomain } from './types.ts';

export const EMAIL_OUTBOX_KIND = 'email';

// A line break in a header would let a subject inject headers of its own.
const headerText = z
  .string()
  .min(1)
  .max(998)
  .refine((value) => !/[\r\n]/.test(value), 'must not contain line breaks');

export const enqueueEmailInputSchema = z.object({
  organizationId: z.string().min(1),
  templateType: z.string().min(1).max(100),
  to: z.email(),
  /** The `From` header (`"Acme" <no-reply@shop.example>`); the transport's default sender when absent. */
  from: headerText.optional(),
  subject: headerText,
  text: z.string().min(1),
  html: z.string().min(1).optional(),
  replyTo: z.email().optional(),
  /** Non-secret facts kept after delivery (ids, locale): never an address, a name, a token or a code. */
  metadata: z.record(z.string(), z.unknown()).optional(),
  /** Unique per tenant where set (`ORDER_SHIPPED:<ful_…>`): the message goes at most once. */
  dedupeKey: z.string().min(1).max(200).optional(),
  at: z.date(),
});

export type EnqueueEmailInput = z.input<typeof enqueueEmailInputSchema>;

/**
 * Queues one rendered email in the outbox and returns its id. Pass the
 * transaction of the change that causes the mail, so the mail exists exactly
 * when the change commits; the worker delivers it afterwards.
 */
export async function enqueueEmail(db: Kysely<Database>, input: EnqueueEmailInput): Promise<string> {
  const [id] = await enqueueEmails(db, [input]);
  return id!;
}

/** Rows per insert statement when many emails are queued at once (a fan-out). */
const INSERT_BATCH = 500;

/** Queues several rendered emails (one statement per 500) and returns their ids in order. */
export async function enqueueEmails(
  db: Kysely<Database>,
  inputs: readonly EnqueueEmailInput[],
): Promise<string[]> {
  const rows = inputs.map(toOutboxRow);
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await db
      .insertInto('outbox')
      .values(rows.slice(start, start + INSERT_BATCH))
      .execute();
  }
  return rows.map((row) => row.id);
}

function toOutboxRow(input: EnqueueEmailInput) {
  const parsed = enqueueEmailInputSchema.safeParse(input);
  if (!parsed.success) {
    throw AppError.validation(
      parsed.error.issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message })),
      'The email is invalid',
    );
  }
  const email = parsed.data;
  const payload: EmailMessage = {
    ...(email.from === undefined ? {} : { from: email.from }),
    to: email.to,
    subject: email.subject,
    text: email.text,
    ...(email.html === undefined ? {} : { html: email.html }),
    ...(email.replyTo === undefined ? {} : { replyTo: email.replyTo }),
  };
  return {
    organization_id: email.organizationId,
    id: newId('obx', email.at),
    kind: EMAIL_OUTBOX_KIND,
    // The recipient's local part is customer data; only its domain stays once the body is gone.
    metadata: JSON.stringify({
      ...email.metadata,
      templateType: email.templateType,
      recipientDomain: recipientDomain(email.to),
    }),
    payload: JSON.stringify(payload),
    next_attempt_at: email.at,
    created_at: email.at,
    dedupe_key: email.dedupeKey ?? null,
  };
}
