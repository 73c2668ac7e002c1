import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTemplateOrganization, readScope, writeScope } from '../../test/email-templates.ts';
import { previewEmailTemplate } from './preview-email-template.ts';
import { updateEmailTemplate } from './update-email-template.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-03-01T10:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});

afterAll(async () => {
  await handle.close();
});

/** Every row a preview could write: overrides, audit entries, outbox rows. */
async function writableState() {
  const [overrides, audits, outbox] = await Promise.all([
    handle.db.selectFrom('email_template_overrides').selectAll().orderBy('type').execute(),
    handle.db.selectFrom('audit_logs').selectAll().orderBy('id').execute(),
    handle.db.selectFrom('outbox').selectAll().orderBy('id').execute(),
  ]);
  return { overrides, audits, outbox };
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

describe('previewEmailTemplate', () => {
  it('renders the draft over the saved override over the defaults', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);
    await updateEmailTemplate(handle.db, writeScope(organizationId, owner, clock.now()), 'ORDER_SHIPPED', {
      subject: 'Saved subject {{ order.number }}',
      heading: 'Saved heading',
      ctaLabel: 'Saved label',
    });

    const preview = await previewEmailTemplate(handle.db, readScope(organizationId), 'ORDER_SHIPPED', {
      draft: {
        subject: 'Draft subject {{ shipment.carrier }}',
        ctaLabel: null,
        bodyText: 'Draft <b>body</b>',
      },
    });

    expect(preview.type).toBe('ORDER_SHIPPED');
    expect(preview.sample).toMatchObject({
      subject: 'Draft subject UPS',
      heading: 'Saved heading',
      bodyText: 'Draft <b>body</b>',
      ctaLabel: 'Track your package',
    });
    expect(preview.sample.html).toContain('Draft &lt;b&gt;body&lt;/b&gt;');
    expect(preview.sender).toEqual({
      fromName: 'Acme Outfitters',
      fromAddress: 'no-reply@commerce.test',
      replyTo: null,
    });
    expect(preview.compliance.unsubscribe).toBe(false);
  });

  it('renders the saved override, or the defaults, without a draft', async () => {
    const { organizationId } = await createTemplateOrganization(handle.db, clock);
    const preview = await previewEmailTemplate(handle.db, readScope(organizationId), 'BACK_IN_STOCK');
    expect(preview.sample.subject).toBe('Trail Runner 2 is back in stock');
    expect(preview.compliance.unsubscribe).toBe(true);
    expect(preview.sample.text).toContain('Unsubscribe: https://shop.example/email/unsubscribe?token=sample');
  });

  it('persists nothing: no override row and no audit row, even for a draft that changes every slot', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);
    await updateEmailTemplate(handle.db, writeScope(organizationId, owner, clock.now()), 'RETURN_APPROVED', {
      heading: 'Saved',
    });
    const before = await writableState();

    await previewEmailTemplate(handle.db, readScope(organizationId), 'RETURN_APPROVED', {
      draft: {
        subject: 'S',
        heading: null,
        bodyText: 'B',
        ctaLabel: 'C',
        fromName: 'F',
        replyTo: 'r@acme.test',
      },
    });
    await previewEmailTemplate(handle.db, readScope(organizationId), 'RETURN_RECEIVED', {
      draft: { subject: 'S' },
    });

    expect(await writableState()).toEqual(before);
  });

  it('validates the draft like an update, reporting issues under draft.<slot>', async () => {
    const { organizationId } = await createTemplateOrganization(handle.db, clock);
    const preview = (draft: unknown) =>
      failureOf(previewEmailTemplate(handle.db, readScope(organizationId), 'CUSTOMER_AUTH', { draft }));

    expect(
      (await preview({ subject: 'Hi {{ customer.name }}', heading: '{% raw %}x{% endraw %}' })).details,
    ).toEqual({
      issues: [
        { path: 'draft.subject', message: expect.stringContaining('unknown merge variable "customer.name"') },
        { path: 'draft.heading', message: expect.stringContaining('tags') },
      ],
    });
    expect((await preview({ bodyText: 'No code' })).details).toEqual({
      issues: [{ path: 'draft.bodyText', message: 'must keep the merge variable "{{ auth.code }}"' }],
    });
    expect((await preview({ subject: 'a\nb' })).code).toBe('VALIDATION_FAILED');
    expect((await preview({ other: 'x' })).code).toBe('VALIDATION_FAILED');
  });

  it('answers 404 for an unknown type', async () => {
    const { organizationId } = await createTemplateOrganization(handle.db, clock);
    const error = await failureOf(previewEmailTemplate(handle.db, readScope(organizationId), 'NOPE'));
    expect(error.code).toBe('RESOURCE_NOT_FOUND');
  });
});
