import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { EMAIL_TEMPLATE_TYPES } from '@commerce/notifications';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countingQueries,
  createTemplateOrganization,
  readScope,
  writeScope,
} from '../../test/email-templates.ts';
import { listEmailTemplates } from './list-email-templates.ts';
import { updateEmailTemplate } from './update-email-template.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-03-01T10:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});

afterAll(async () => {
  await handle.close();
});

describe('listEmailTemplates', () => {
  it('lists the 21 types with defaults, no override, merge variables, a sample and the sender and compliance parts', async () => {
    const { organizationId } = await createTemplateOrganization(handle.db, clock);

    const page = await listEmailTemplates(handle.db, readScope(organizationId));

    expect(page.nextCursor).toBeNull();
    expect(page.data.map((template) => template.type)).toEqual([...EMAIL_TEMPLATE_TYPES]);
    const order = page.data.find((template) => template.type === 'ORDER_CONFIRMATION')!;
    expect(order.defaults).toEqual({
      subject: 'Order {{ order.number }} confirmed',
      heading: 'Thank you for your order, {{ customer.name }}',
      bodyText: expect.stringContaining('We have received order {{ order.number }}'),
      ctaLabel: 'View your order',
      fromName: 'Acme Outfitters',
      replyTo: null,
    });
    expect(order.override).toBeNull();
    expect(order.mergeVariables).toContainEqual({
      name: 'order.number',
      description: "The order's display number",
      sample: '1042',
    });
    expect(order.sample.subject).toBe('Order 1042 confirmed');
    expect(order.sample.heading).toBe('Thank you for your order, Ada Lovelace');
    expect(order.sample.ctaLabel).toBe('View your order');
    expect(order.sample.text).toContain('View your order: https://shop.example/account/orders/or1_');
    expect(order.sample.html).toContain('<h1');
    expect(order.sender).toEqual({
      fromName: 'Acme Outfitters',
      fromAddress: 'no-reply@commerce.test',
      replyTo: null,
    });
    expect(order.compliance).toEqual({
      footer:
        'Sent by Acme Outfitters.\nYou are receiving this email because of your activity with Acme Outfitters.',
      unsubscribe: false,
    });
    const cart = page.data.find((template) => template.type === 'ABANDONED_CART_RECOVERY')!;
    expect(cart.compliance.unsubscribe).toBe(true);
    expect(cart.sample.text).toContain('Unsubscribe: https://shop.example/email/unsubscribe?token=sample');
  });

  it("uses the business profile's display name and support email", async () => {
    const { organizationId } = await createTemplateOrganization(handle.db, clock, {
      name: 'acme-legal-entity',
      businessProfile: { displayName: 'Acme <Outdoor> "Co"', supportEmail: 'help@acme.test' },
    });

    const page = await listEmailTemplates(handle.db, readScope(organizationId));

    const shipped = page.data.find((template) => template.type === 'ORDER_SHIPPED')!;
    expect(shipped.defaults.fromName).toBe('Acme Outdoor Co');
    expect(shipped.sender).toMatchObject({ fromName: 'Acme Outdoor Co', replyTo: 'help@acme.test' });
    expect(shipped.compliance.footer).toContain('Questions? Contact help@acme.test.');
    expect(shipped.sample.text).toContain('Sent by Acme <Outdoor> "Co".');
    expect(shipped.sample.html).toContain('Sent by Acme &lt;Outdoor&gt; &#34;Co&#34;.');
  });

  it("prints the business profile's postal address in the compliance footer, escaped in HTML", async () => {
    const { organizationId } = await createTemplateOrganization(handle.db, clock, {
      businessProfile: {
        address: { line1: '1 Main <St>', city: 'Springfield', postalCode: '12345', country: 'US' },
      },
    });
    const withAddress = (await listEmailTemplates(handle.db, readScope(organizationId))).data[0]!;
    expect(withAddress.compliance.footer).toContain('1 Main <St>, Springfield, 12345, US');
    expect(withAddress.sample.text).toContain('1 Main <St>, Springfield, 12345, US');
    expect(withAddress.sample.html).toContain('1 Main &lt;St&gt;, Springfield, 12345, US');

    const { organizationId: bare } = await createTemplateOrganization(handle.db, clock);
    const withoutAddress = (await listEmailTemplates(handle.db, readScope(bare))).data[0]!;
    expect(withoutAddress.compliance.footer).not.toMatch(/Springfield/);
  });

  it("shows an organization's own overrides, resolved into the sample, and no other organization's", async () => {
    const mine = await createTemplateOrganization(handle.db, clock);
    const theirs = await createTemplateOrganization(handle.db, clock);
    await updateEmailTemplate(
      handle.db,
      writeScope(mine.organizationId, mine.owner, clock.now()),
      'ORDER_SHIPPED',
      {
        subject: 'Shipped: {{ order.number }}',
        replyTo: 'ship@acme.test',
      },
    );

    const [minePage, theirPage] = await Promise.all([
      listEmailTemplates(handle.db, readScope(mine.organizationId)),
      listEmailTemplates(handle.db, readScope(theirs.organizationId)),
    ]);

    const shipped = minePage.data.find((template) => template.type === 'ORDER_SHIPPED')!;
    expect(shipped.override).toEqual({
      subject: 'Shipped: {{ order.number }}',
      heading: null,
      bodyText: null,
      ctaLabel: null,
      fromName: null,
      replyTo: 'ship@acme.test',
      updatedAt: clock.now().toISOString(),
    });
    expect(shipped.defaults.subject).toBe('Order {{ order.number }} is on its way');
    expect(shipped.sample.subject).toBe('Shipped: 1042');
    expect(shipped.sample.heading).toBe('Your order has shipped');
    expect(shipped.sender.replyTo).toBe('ship@acme.test');
    expect(theirPage.data.every((template) => template.override === null)).toBe(true);
  });

  it('runs the same two queries whatever the number of overrides', async () => {
    const { organizationId, owner } = await createTemplateOrganization(handle.db, clock);
    const counter = countingQueries(handle.db);
    await listEmailTemplates(counter.db, readScope(organizationId));
    expect(counter.count()).toBe(2);

    for (const type of ['ORDER_CONFIRMATION', 'ORDER_SHIPPED', 'RETURN_REJECTED', 'BACK_IN_STOCK']) {
      await updateEmailTemplate(handle.db, writeScope(organizationId, owner, clock.now()), type, {
        heading: 'Hello',
      });
    }
    const after = countingQueries(handle.db);
    const page = await listEmailTemplates(after.db, readScope(organizationId));
    expect(after.count()).toBe(2);
    expect(page.data.filter((template) => template.override !== null)).toHaveLength(4);
  });
});
