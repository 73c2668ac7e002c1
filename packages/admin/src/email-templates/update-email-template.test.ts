import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTemplateOrganization, writeScope } from '../../test/email-templates.ts';
import { updateEmailTemplate } from './update-email-template.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-03-01T10:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 10 });
});

afterAll(async () => {
  await handle.close();
});

async function readRow(organizationId: string, type: string) {
  return handle.db
    .selectFrom('email_template_overrides')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('type', '=', type)
    .executeTakeFirst();
}

async function auditRows(organizationId: string) {
  return handle.db
    .selectFrom('audit_logs')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('action', '=', 'email_template.updated')
    .orderBy('created_at')
    .orderBy('id')
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

describe('updateEmailTemplate', () => {
  it('stores only the slots sent and audits their names, never their values', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);

    const read = await updateEmailTemplate(
      handle.db,
      writeScope(organizationId, owner, clock.now()),
      'ORDER_CONFIRMATION',
      {
        subject: 'Your order {{ order.number }} at {{ organization.name }}',
        bodyText: 'Thanks, {{ customer.name }}!\n\nSecret promo: SAVE20',
      },
    );

    expect(read.override).toEqual({
      subject: 'Your order {{ order.number }} at {{ organization.name }}',
      heading: null,
      bodyText: 'Thanks, {{ customer.name }}!\n\nSecret promo: SAVE20',
      ctaLabel: null,
      fromName: null,
      replyTo: null,
      updatedAt: clock.now().toISOString(),
    });
    expect(read.sample.subject).toBe('Your order 1042 at Acme Outfitters');
    expect(read.sample.heading).toBe('Thank you for your order, Ada Lovelace');
    expect(await readRow(organizationId, 'ORDER_CONFIRMATION')).toMatchObject({
      subject: 'Your order {{ order.number }} at {{ organization.name }}',
      heading: null,
      body_text: 'Thanks, {{ customer.name }}!\n\nSecret promo: SAVE20',
      updated_by: owner.userId,
    });
    const audits = await auditRows(organizationId);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor_user_id: owner.userId,
      actor_email: owner.email,
      target_type: 'email_template',
      target_id: 'ORDER_CONFIRMATION',
    });
    expect(audits[0]?.metadata).toEqual({ fields: ['subject', 'bodyText'] });
    expect(JSON.stringify(audits[0]?.metadata)).not.toContain('SAVE20');
  });

  it('keeps earlier slots when a later update sends others, and audits only what changed', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);
    const scope = () => writeScope(organizationId, owner, clock.now());
    await updateEmailTemplate(handle.db, scope(), 'ORDER_SHIPPED', { subject: 'Shipped {{ order.number }}' });
    clock.advance(60_000);

    const read = await updateEmailTemplate(handle.db, scope(), 'ORDER_SHIPPED', {
      subject: 'Shipped {{ order.number }}',
      ctaLabel: 'Track it',
      fromName: 'Acme Shipping',
      replyTo: 'ship@acme.test',
    });

    expect(read.override).toMatchObject({
      subject: 'Shipped {{ order.number }}',
      ctaLabel: 'Track it',
      fromName: 'Acme Shipping',
      replyTo: 'ship@acme.test',
      updatedAt: clock.now().toISOString(),
    });
    expect(read.sender).toEqual({
      fromName: 'Acme Shipping',
      fromAddress: 'no-reply@commerce.test',
      replyTo: 'ship@acme.test',
    });
    expect((await auditRows(organizationId)).map((row) => row.metadata)).toEqual([
      { fields: ['subject'] },
      { fields: ['ctaLabel', 'fromName', 'replyTo'] },
    ]);
  });

  it('writes nothing and audits nothing when no slot changes', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);
    const scope = () => writeScope(organizationId, owner, clock.now());
    const first = await updateEmailTemplate(handle.db, scope(), 'RETURN_APPROVED', { heading: 'Approved!' });
    clock.advance(60_000);

    const again = await updateEmailTemplate(handle.db, scope(), 'RETURN_APPROVED', { heading: 'Approved!' });
    const empty = await updateEmailTemplate(handle.db, scope(), 'RETURN_RECEIVED', {});

    expect(again.override?.updatedAt).toBe(first.override?.updatedAt);
    expect(empty.override).toBeNull();
    expect(await readRow(organizationId, 'RETURN_RECEIVED')).toBeUndefined();
    expect(await auditRows(organizationId)).toHaveLength(1);
  });

  it('resets a slot sent as null to its default, and removes the override once every slot is reset', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);
    const scope = () => writeScope(organizationId, owner, clock.now());
    await updateEmailTemplate(handle.db, scope(), 'BACK_IN_STOCK', {
      subject: 'Back: {{ item.name }}',
      heading: 'Yay',
    });
    clock.advance(1000);

    const partly = await updateEmailTemplate(handle.db, scope(), 'BACK_IN_STOCK', { subject: null });
    expect(partly.override).toMatchObject({ subject: null, heading: 'Yay' });
    expect(partly.sample.subject).toBe('Trail Runner 2 is back in stock');
    clock.advance(1000);

    const fully = await updateEmailTemplate(handle.db, scope(), 'BACK_IN_STOCK', {
      heading: null,
      replyTo: null,
    });
    expect(fully.override).toBeNull();
    expect(fully.sample.heading).toBe('Good news: Trail Runner 2 is back');
    expect(await readRow(organizationId, 'BACK_IN_STOCK')).toBeUndefined();
    expect((await auditRows(organizationId)).map((row) => row.metadata)).toEqual([
      { fields: ['subject', 'heading'] },
      { fields: ['subject'] },
      { fields: ['heading'] },
    ]);
  });

  it('refuses unknown merge variables, one issue per variable, and writes nothing', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);

    const error = await failureOf(
      updateEmailTemplate(handle.db, writeScope(organizationId, owner, clock.now()), 'ORDER_CONFIRMATION', {
        subject: 'Order {{ order.numbr }}',
        heading: 'Hi',
        bodyText: '{{ customer.firstName }} {{ coupon.code }}',
      }),
    );

    expect(error.code).toBe('VALIDATION_FAILED');
    const issues = (error.details as { issues: { path: string; message: string }[] }).issues;
    expect(issues.map((issue) => issue.path)).toEqual(['subject', 'bodyText', 'bodyText']);
    expect(issues[0]?.message).toContain('"order.numbr"');
    expect(issues[1]?.message).toContain('"customer.firstName"');
    expect(issues[2]?.message).toContain('"coupon.code"');
    expect(await readRow(organizationId, 'ORDER_CONFIRMATION')).toBeUndefined();
    expect(await auditRows(organizationId)).toEqual([]);
  });

  it('refuses tags, filters, oversized slots, line breaks in the subject and unknown keys', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);
    const update = (patch: unknown) =>
      failureOf(
        updateEmailTemplate(
          handle.db,
          writeScope(organizationId, owner, clock.now()),
          'ORDER_SHIPPED',
          patch,
        ),
      );

    const cases: [unknown, string][] = [
      [{ bodyText: '{% if customer.name %}x{% endif %}' }, 'bodyText'],
      [{ heading: '{{ customer.name | upcase }}' }, 'heading'],
      [{ subject: 'x'.repeat(201) }, 'subject'],
      [{ bodyText: 'x'.repeat(5001) }, 'bodyText'],
      [{ ctaLabel: 'x'.repeat(61) }, 'ctaLabel'],
      [{ subject: 'Line one\nBcc: x@y.z' }, 'subject'],
      [{ fromName: 'Acme <spoof@evil.example>' }, 'fromName'],
      [{ replyTo: 'nope' }, 'replyTo'],
      [{ footer: 'mine' }, ''],
    ];
    for (const [patch, path] of cases) {
      const error = await update(patch);
      expect(error.code, JSON.stringify(patch)).toBe('VALIDATION_FAILED');
      expect((error.details as { issues: { path: string }[] }).issues[0]?.path).toBe(path);
    }
    expect(await readRow(organizationId, 'ORDER_SHIPPED')).toBeUndefined();
  });

  it('keeps the sign-in code in CUSTOMER_AUTH copy', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);
    const scope = () => writeScope(organizationId, owner, clock.now());

    const error = await failureOf(
      updateEmailTemplate(handle.db, scope(), 'CUSTOMER_AUTH', { bodyText: 'Click the button.' }),
    );
    expect(error.details).toEqual({
      issues: [{ path: 'bodyText', message: 'must keep the merge variable "{{ auth.code }}"' }],
    });
    expect(await readRow(organizationId, 'CUSTOMER_AUTH')).toBeUndefined();

    const read = await updateEmailTemplate(handle.db, scope(), 'CUSTOMER_AUTH', {
      subject: 'Code {{ auth.code }}',
      bodyText: 'Click the button.',
    });
    expect(read.sample.subject).toBe('Code 482913');
  });

  it('answers 404 for a type outside the fixed set', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);
    for (const type of ['WELCOME', 'order_confirmation', '']) {
      const error = await failureOf(
        updateEmailTemplate(handle.db, writeScope(organizationId, owner, clock.now()), type, {
          subject: 'x',
        }),
      );
      expect(error.code).toBe('RESOURCE_NOT_FOUND');
    }
  });

  it("never touches another organization's override of the same type", async () => {
    const mine = await createTemplateOrganization(handle.db, clock);
    const theirs = await createTemplateOrganization(handle.db, clock);
    await updateEmailTemplate(
      handle.db,
      writeScope(theirs.organizationId, theirs.owner, clock.now()),
      'ORDER_SHIPPED',
      {
        heading: 'Theirs',
      },
    );

    await updateEmailTemplate(
      handle.db,
      writeScope(mine.organizationId, mine.owner, clock.now()),
      'ORDER_SHIPPED',
      {
        heading: null,
        subject: 'Mine',
      },
    );

    expect(await readRow(theirs.organizationId, 'ORDER_SHIPPED')).toMatchObject({
      heading: 'Theirs',
      subject: null,
    });
    expect(await auditRows(theirs.organizationId)).toHaveLength(1);
  });

  it(`keeps every slot of concurrent first updates to one type (${testDatabaseKind})`, async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);
    const patches = [
      { subject: 'S {{ order.number }}' },
      { heading: 'H' },
      { bodyText: 'B' },
      { ctaLabel: 'C' },
      { fromName: 'F' },
      { replyTo: 'r@acme.test' },
    ];

    const reads = await Promise.all(
      patches.map((patch) =>
        updateEmailTemplate(
          handle.db,
          writeScope(organizationId, owner, clock.now()),
          'ORDER_CONFIRMATION',
          patch,
        ),
      ),
    );

    expect(reads).toHaveLength(6);
    expect(await readRow(organizationId, 'ORDER_CONFIRMATION')).toMatchObject({
      subject: 'S {{ order.number }}',
      heading: 'H',
      body_text: 'B',
      cta_label: 'C',
      from_name: 'F',
      reply_to: 'r@acme.test',
    });
    const fields = (await auditRows(organizationId)).map(
      (row) => (row.metadata as { fields: string[] }).fields,
    );
    expect(fields.flat().sort()).toEqual([
      'bodyText',
      'ctaLabel',
      'fromName',
      'heading',
      'replyTo',
      'subject',
    ]);
  });

  it(`does not lose a concurrent update to a reset of the same override (${testDatabaseKind})`, async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);
    const scope = () => writeScope(organizationId, owner, clock.now());
    // A race is won or lost by timing: several rounds make a lost update show up.
    for (let round = 0; round < 8; round++) {
      await updateEmailTemplate(handle.db, scope(), 'RETURN_REJECTED', { heading: 'Old', subject: null });

      await Promise.all([
        updateEmailTemplate(handle.db, scope(), 'RETURN_REJECTED', { heading: null }),
        updateEmailTemplate(handle.db, scope(), 'RETURN_REJECTED', { subject: `New ${round}` }),
      ]);

      expect(await readRow(organizationId, 'RETURN_REJECTED')).toMatchObject({
        subject: `New ${round}`,
        heading: null,
      });
    }
  });
});
