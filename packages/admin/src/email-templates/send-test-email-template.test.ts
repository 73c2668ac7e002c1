import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import {
  createDevTransport,
  PermanentDeliveryError,
  silentLogger,
  TransientDeliveryError,
} from '@commerce/notifications';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTemplateOrganization,
  readScope,
  recordingTransport,
  writeScope,
} from '../../test/email-templates.ts';
import { type SendTestScope, sendTestEmailTemplate } from './send-test-email-template.ts';
import { updateEmailTemplate } from './update-email-template.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-03-01T10:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});

afterAll(async () => {
  await handle.close();
});

function sendScope(organizationId: string, requester: { userId: string; email: string }): SendTestScope {
  return { ...readScope(organizationId), requester, clock };
}

async function outboxRows(organizationId: string) {
  return handle.db
    .selectFrom('outbox')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .execute();
}

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('sendTestEmailTemplate', () => {
  it('sends the resolved sample to the signed-in user by default, through the outbox, delivered at once', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock, {
      businessProfile: { supportEmail: 'help@acme.test' },
    });
    await updateEmailTemplate(
      handle.db,
      writeScope(organizationId, owner, clock.now()),
      'ORDER_CONFIRMATION',
      {
        heading: 'Saved heading for {{ customer.name }}',
        fromName: 'Acme Orders',
      },
    );
    const transport = createDevTransport(handle.db, silentLogger, clock);

    const result = await sendTestEmailTemplate(
      handle.db,
      transport,
      sendScope(organizationId, owner),
      'ORDER_CONFIRMATION',
      {},
    );

    expect(result).toEqual({ status: 'SENT', to: owner.email, outboxId: expect.stringMatching(/^obx_/) });
    const [row] = await outboxRows(organizationId);
    expect(row).toMatchObject({ id: result.outboxId, status: 'DONE', attempts: 1, payload: null });
    expect(row?.metadata).toEqual({
      purpose: 'email_template.send_test',
      mode: 'SELF',
      requestedBy: owner.userId,
      templateType: 'ORDER_CONFIRMATION',
      recipientDomain: 'acme.test',
    });
    const [email] = await handle.db
      .selectFrom('dev_emails')
      .selectAll()
      .where('outbox_id', '=', result.outboxId)
      .execute();
    expect(email).toMatchObject({ to_address: owner.email, subject: '[Test] Order 1042 confirmed' });
    expect(email?.text_body).toContain('Saved heading for Ada Lovelace');
    expect(email?.text_body).toContain('Questions? Contact help@acme.test.');
    expect(email?.html_body).toContain('<h1');
  });

  it('hands the provider the sender name, the reply-to and the draft', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock, {
      businessProfile: { supportEmail: 'help@acme.test' },
    });
    const transport = recordingTransport();

    await sendTestEmailTemplate(handle.db, transport, sendScope(organizationId, owner), 'RETURN_COMPLETED', {
      draft: { subject: 'Refund {{ return.refundTotal }}', fromName: 'Acme Returns' },
    });

    expect(transport.sent).toHaveLength(1);
    expect(transport.sent[0]?.message).toMatchObject({
      from: '"Acme Returns" <no-reply@commerce.test>',
      to: owner.email,
      subject: '[Test] Refund $42.00',
      replyTo: 'help@acme.test',
    });
    expect(
      await handle.db
        .selectFrom('email_template_overrides')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .execute(),
    ).toEqual([]);
  });

  it("sends to a CUSTOM_ADDRESS that is a member's email, an invited member's email or the support email", async () => {
    const { organizationId, owner, invitedEmail } = await createTemplateOrganization(handle.db, clock, {
      businessProfile: { supportEmail: 'Help@Acme.test' },
    });
    const transport = recordingTransport();

    for (const to of [owner.email.toUpperCase(), invitedEmail, 'help@acme.TEST']) {
      const result = await sendTestEmailTemplate(
        handle.db,
        transport,
        sendScope(organizationId, owner),
        'ORDER_SHIPPED',
        {
          mode: 'CUSTOM_ADDRESS',
          to,
        },
      );
      expect(result).toMatchObject({ status: 'SENT', to });
    }
    expect(transport.sent.map((sent) => sent.message.to)).toEqual([
      owner.email.toUpperCase(),
      invitedEmail,
      'help@acme.TEST',
    ]);
  });

  it('refuses any other CUSTOM_ADDRESS with 422 before writing or sending anything', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);
    const other = await createTemplateOrganization(handle.db, clock, {
      businessProfile: { supportEmail: 'other@acme.test' },
    });
    const transport = recordingTransport();

    for (const to of [
      'stranger@example.com',
      other.owner.email,
      'other@acme.test',
      'not an address',
      `${owner.email}\nBcc: x@y.z`,
    ]) {
      const error = await failureOf(
        sendTestEmailTemplate(handle.db, transport, sendScope(organizationId, owner), 'ORDER_SHIPPED', {
          mode: 'CUSTOM_ADDRESS',
          to,
        }),
      );
      expect(error.code, to).toBe('EMAIL_POLICY_REJECTED');
      expect(error.status).toBe(422);
      expect(error.message).not.toContain(to);
    }
    expect(transport.sent).toEqual([]);
    expect(await outboxRows(organizationId)).toEqual([]);
  });

  it('answers 503 when the provider cannot be reached and 502 when it refuses, failing the row for good', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);
    const cases = [
      [new TransientDeliveryError('SMTP ECONNECTION'), 'PROVIDER_UNAVAILABLE', 503],
      [new PermanentDeliveryError('SMTP EENVELOPE 550 at RCPT TO'), 'PROVIDER_ERROR', 502],
    ] as const;
    for (const [failure, code, status] of cases) {
      const transport = recordingTransport(async () => {
        throw failure;
      });
      const error = await failureOf(
        sendTestEmailTemplate(
          handle.db,
          transport,
          sendScope(organizationId, owner),
          'COMMERCE_INVOICE_SEND',
          {},
        ),
      );
      expect(error).toMatchObject({ code, status });
      clock.advance(1000);
    }
    const rows = await outboxRows(organizationId);
    expect(rows.map((row) => [row.status, row.payload, row.last_error])).toEqual([
      ['FAILED', null, 'SMTP ECONNECTION'],
      ['FAILED', null, 'SMTP EENVELOPE 550 at RCPT TO'],
    ]);
  });

  it('refuses a bad body with 400 and an unknown type with 404, sending nothing', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);
    const transport = recordingTransport();
    const send = (type: string, body: unknown) =>
      failureOf(sendTestEmailTemplate(handle.db, transport, sendScope(organizationId, owner), type, body));

    expect((await send('ORDER_SHIPPED', { mode: 'CUSTOM_ADDRESS' })).details).toEqual({
      issues: [{ path: 'to', message: 'is required with mode CUSTOM_ADDRESS' }],
    });
    expect((await send('ORDER_SHIPPED', { to: owner.email })).details).toEqual({
      issues: [{ path: 'to', message: 'is only accepted with mode CUSTOM_ADDRESS' }],
    });
    expect((await send('ORDER_SHIPPED', { mode: 'EVERYONE' })).code).toBe('VALIDATION_FAILED');
    expect((await send('ORDER_SHIPPED', { draft: { subject: '{{ nope }}' } })).details).toMatchObject({
      issues: [{ path: 'draft.subject' }],
    });
    expect((await send('NOPE', {})).code).toBe('RESOURCE_NOT_FOUND');
    expect(transport.sent).toEqual([]);
  });
});
