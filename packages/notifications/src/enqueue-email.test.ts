import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotificationsTestDatabase, ORG_ID, readOutboxRow } from '../test/factories.ts';
import { enqueueEmail } from './enqueue-email.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-03-01T10:00:00.000Z');

beforeAll(async () => {
  handle = await createNotificationsTestDatabase();
});

afterAll(async () => {
  await handle.close();
});

const signInEmail = {
  organizationId: ORG_ID,
  templateType: 'customer.sign_in_code',
  to: 'alice@Shop.Example',
  subject: 'Your sign-in code',
  text: 'Your code is 123456',
  html: '<p>Your code is <b>123456</b></p>',
  metadata: { locale: 'en', customerId: 'cus_1' },
};

describe('enqueueEmail', () => {
  it('writes a due PENDING row with the rendered payload and metadata that names no recipient', async () => {
    const id = await enqueueEmail(handle.db, { ...signInEmail, at: clock.now() });

    expect(id).toMatch(/^obx_/);
    const row = await readOutboxRow(handle.db, id);
    expect(row).toMatchObject({
      organization_id: ORG_ID,
      kind: 'email',
      status: 'PENDING',
      attempts: 0,
      locked_until: null,
      delivered_at: null,
    });
    expect(row.next_attempt_at.getTime()).toBe(clock.now().getTime());
    expect(row.payload).toEqual({
      to: 'alice@Shop.Example',
      subject: 'Your sign-in code',
      text: 'Your code is 123456',
      html: '<p>Your code is <b>123456</b></p>',
    });
    expect(row.metadata).toEqual({
      locale: 'en',
      customerId: 'cus_1',
      templateType: 'customer.sign_in_code',
      recipientDomain: 'shop.example',
    });
    expect(JSON.stringify(row.metadata)).not.toContain('alice');
  });

  it('leaves no row when the transaction that queued it rolls back', async () => {
    let queuedId: string | undefined;
    await expect(
      handle.db.transaction().execute(async (trx) => {
        queuedId = await enqueueEmail(trx, { ...signInEmail, at: clock.now() });
        throw new Error('the causing change failed');
      }),
    ).rejects.toThrow('the causing change failed');

    expect(queuedId).toBeDefined();
    const rows = await handle.db
      .selectFrom('outbox')
      .select('id')
      .where('id', '=', queuedId ?? '')
      .execute();
    expect(rows).toEqual([]);
  });

  it('commits with the transaction that queued it', async () => {
    const id = await handle.db
      .transaction()
      .execute((trx) => enqueueEmail(trx, { ...signInEmail, at: clock.now() }));
    expect((await readOutboxRow(handle.db, id)).status).toBe('PENDING');
  });

  it('refuses an invalid recipient and a subject that would inject a header', async () => {
    const invalid = enqueueEmail(handle.db, {
      ...signInEmail,
      to: 'not-an-address',
      subject: 'Hi\r\nBcc: everyone@example.com',
      at: clock.now(),
    });
    await expect(invalid).rejects.toBeInstanceOf(AppError);
    await expect(invalid).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { issues: [{ path: 'to' }, { path: 'subject' }] },
    });
  });
});
