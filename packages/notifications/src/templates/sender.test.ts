import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotificationsTestDatabase, ORG_ID, readOutboxRow } from '../../test/factories.ts';
import { enqueueTemplatedEmail } from './sender.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-03-01T10:00:00.000Z');

beforeAll(async () => {
  handle = await createNotificationsTestDatabase();
});

afterAll(async () => {
  await handle.close();
});

const links = {
  action: 'https://shop.example/products/lamp',
  unsubscribe: 'https://shop.example/email/unsubscribe?token=u1_abc',
};

function send(values: Record<string, string> = { 'item.name': 'Lamp', 'variant.name': 'Brass' }) {
  return enqueueTemplatedEmail(handle.db, {
    organizationId: ORG_ID,
    type: 'STOCK_NOTIFICATION_CONFIRMATION',
    to: 'ada@example.com',
    values,
    links,
    emailFrom: 'Platform <no-reply@platform.example>',
    metadata: { subscriptionId: 'sts_1' },
    at: clock.now(),
  });
}

describe('enqueueTemplatedEmail', () => {
  it('queues the default copy with the store as sender, the links and the compliance footer', async () => {
    const id = await send();
    const row = await readOutboxRow(handle.db, id);
    const payload = row.payload as Record<string, string>;
    expect(payload.to).toBe('ada@example.com');
    expect(payload.from).toBe('"N" <no-reply@platform.example>');
    expect(payload.subject).toBe('We will let you know when Lamp is back');
    expect(payload.text).toContain('Thanks for your interest in Lamp (Brass).');
    expect(payload.text).toContain(links.action);
    expect(payload.text).toContain(`Unsubscribe: ${links.unsubscribe}`);
    expect(payload.text).toContain('Sent by N.');
    expect(payload.replyTo).toBeUndefined();
    expect(row.metadata).toMatchObject({
      templateType: 'STOCK_NOTIFICATION_CONFIRMATION',
      subscriptionId: 'sts_1',
      recipientDomain: 'example.com',
    });
  });

  it('replaces {orgSlug} in the links with the store slug (a job without a tenant builds them)', async () => {
    const { slug } = await handle.db
      .selectFrom('organizations')
      .select('slug')
      .where('id', '=', ORG_ID)
      .executeTakeFirstOrThrow();
    const id = await enqueueTemplatedEmail(handle.db, {
      organizationId: ORG_ID,
      type: 'STOCK_NOTIFICATION_CONFIRMATION',
      to: 'ada@example.com',
      values: { 'item.name': 'Lamp' },
      links: {
        action: 'http://localhost:3000/hosted/{orgSlug}/products/lamp',
        unsubscribe: 'https://{orgSlug}.shops.example/email/unsubscribe?token=u1_abc',
      },
      emailFrom: 'Platform <no-reply@platform.example>',
      at: clock.now(),
    });
    const payload = (await readOutboxRow(handle.db, id)).payload as Record<string, string>;
    expect(payload.text).toContain(`http://localhost:3000/hosted/${slug}/products/lamp`);
    expect(payload.text).toContain(
      `Unsubscribe: https://${slug}.shops.example/email/unsubscribe?token=u1_abc`,
    );
    expect(payload.text).not.toContain('{orgSlug}');
    expect(payload.html).not.toContain('{orgSlug}');
  });

  it('replaces {orgSlug} in the link values the body prints, in the text and the HTML part', async () => {
    const { slug } = await handle.db
      .selectFrom('organizations')
      .select('slug')
      .where('id', '=', ORG_ID)
      .executeTakeFirstOrThrow();
    const manageUrl = 'http://localhost:3000/hosted/{orgSlug}/bookings/manage/m1_abc';
    const id = await enqueueTemplatedEmail(handle.db, {
      organizationId: ORG_ID,
      type: 'BOOKING_NOTIFICATION',
      to: 'ada@example.com',
      values: {
        'booking.eventTitle': 'Booking confirmed',
        'booking.eventMessage': 'Your booking is confirmed.',
        'booking.manageUrl': manageUrl,
        'booking.actionLabel': 'View booking',
      },
      links: { action: manageUrl },
      emailFrom: 'Platform <no-reply@platform.example>',
      at: clock.now(),
    });
    const payload = (await readOutboxRow(handle.db, id)).payload as Record<string, string>;
    const resolved = `http://localhost:3000/hosted/${slug}/bookings/manage/m1_abc`;
    expect(payload.text).toContain(`Manage this booking: ${resolved}`);
    // The body's link, a link in the HTML part too, names the store.
    expect(payload.html).toContain(`Manage this booking: <a href="${resolved}"`);
    expect(payload.html).toContain(`>${resolved}</a>`);
    expect(`${payload.text}${payload.html}`).not.toContain('/hosted/{orgSlug}');
  });

  it("uses the merchant's saved copy slot by slot and the support email as reply-to", async () => {
    await handle.db
      .insertInto('organization_settings')
      .values({
        organization_id: ORG_ID,
        business_profile: JSON.stringify({ displayName: 'Lamp Shop', supportEmail: 'help@lamp.example' }),
      })
      .execute();
    await handle.db
      .insertInto('email_template_overrides')
      .values({
        organization_id: ORG_ID,
        type: 'STOCK_NOTIFICATION_CONFIRMATION',
        subject: 'Noted: {{ item.name }}',
        updated_by: null,
      })
      .execute();
    try {
      const row = await readOutboxRow(handle.db, await send());
      const payload = row.payload as Record<string, string>;
      expect(payload.subject).toBe('Noted: Lamp');
      expect(payload.from).toBe('"Lamp Shop" <no-reply@platform.example>');
      expect(payload.replyTo).toBe('help@lamp.example');
      // The heading keeps its default: only the subject was overridden.
      expect(payload.text).toMatch(/^You are on the list\n/);
      // Merge values are escaped in the HTML part; a value not given renders empty.
      const escaped = await readOutboxRow(handle.db, await send({ 'item.name': '<b>Lamp</b>' }));
      expect((escaped.payload as Record<string, string>).html).toContain('&lt;b&gt;Lamp&lt;/b&gt; ()');
    } finally {
      await handle.db.deleteFrom('email_template_overrides').execute();
      await handle.db.deleteFrom('organization_settings').execute();
    }
  });

  it('refuses a type with an unsubscribe link when none is given', async () => {
    await expect(
      enqueueTemplatedEmail(handle.db, {
        organizationId: ORG_ID,
        type: 'BACK_IN_STOCK',
        to: 'ada@example.com',
        values: {},
        links: { action: links.action },
        emailFrom: 'no-reply@platform.example',
        at: clock.now(),
      }),
    ).rejects.toThrow(/unsubscribe/);
  });
});
