import { describe, expect, it } from 'vitest';
import { getEmailTemplateDefinition, sampleMergeValues } from './registry.ts';
import { complianceFooter, renderEmailTemplate, renderEmailTemplateSample, sampleLinks } from './render.ts';
import { findCopyIssues } from './slots.ts';

const organization = { name: 'Acme Outfitters', supportEmail: 'help@acme.test' };
const orderConfirmation = getEmailTemplateDefinition('ORDER_CONFIRMATION');
const backInStock = getEmailTemplateDefinition('BACK_IN_STOCK');
const links = { action: 'https://shop.example/account/orders/or1_abc?view=1&lang=en' };

function renderOrder(values: Record<string, string>, copy = orderConfirmation.defaults) {
  return renderEmailTemplate({
    definition: orderConfirmation,
    copy,
    values: { ...sampleMergeValues(orderConfirmation), ...values },
    links,
    organization,
  });
}

/** The HTML part between its <body> tags, so the layout's own markup is not mistaken for injected markup. */
function bodyOf(html: string): string {
  return html.slice(html.indexOf('<body'), html.indexOf('</body>'));
}

describe('renderEmailTemplate', () => {
  it('escapes merge values in the HTML part and keeps them as they are in the text part', () => {
    const rendered = renderOrder({
      'customer.name': '<script>alert(1)</script>',
      'order.number': '"&\'',
    });

    expect(rendered.html).not.toContain('<script>');
    expect(rendered.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(rendered.html).toContain('&#34;&amp;&#39;');
    expect(rendered.html).not.toContain('"&\'');
    expect(rendered.text).toContain('Thank you for your order, <script>alert(1)</script>');
    expect(rendered.text).toContain('We have received order "&\' (3 items, $128.00)');
    expect(rendered.subject).toBe('Order "&\' confirmed');
  });

  it("escapes the merchant's own copy too, so copy can never add markup", () => {
    const rendered = renderOrder(
      {},
      {
        ...orderConfirmation.defaults,
        heading: '<img src=x onerror=alert(1)> {{ customer.name }}',
        bodyText: '<a href="https://evil.example">Click</a> & <b>bold</b>',
        ctaLabel: '</a><a href="https://evil.example">',
      },
    );

    const body = bodyOf(rendered.html);
    expect(body).not.toMatch(/<img|<b>|evil\.example">/);
    expect(body).toContain('&lt;img src=x onerror=alert(1)&gt; Ada Lovelace');
    expect(body).toContain(
      '&lt;a href=&#34;https://evil.example&#34;&gt;Click&lt;/a&gt; &amp; &lt;b&gt;bold&lt;/b&gt;',
    );
    expect(body.match(/<a /g)).toHaveLength(1);
    expect(rendered.text).toContain('<a href="https://evil.example">Click</a> & <b>bold</b>');
  });

  it('does not evaluate template syntax that arrives inside a merge value', () => {
    const rendered = renderOrder({ 'customer.name': '{{ order.total }}{% if true %}x{% endif %}' });
    expect(rendered.heading).toBe('Thank you for your order, {{ order.total }}{% if true %}x{% endif %}');
  });

  it('turns blank lines of the body into paragraphs and single line breaks into <br>', () => {
    const rendered = renderOrder(
      {},
      {
        ...orderConfirmation.defaults,
        bodyText: 'First line\r\nsecond line\n\n\n  \nNext paragraph\n\nLast for {{ customer.name }}',
      },
    );

    const paragraphs = [
      ...bodyOf(rendered.html).matchAll(/<p style="margin:0 0 16px;[^"]*">(.*?)<\/p>/g),
    ].map((match) => match[1]);
    expect(paragraphs).toEqual(['First line<br>second line', 'Next paragraph', 'Last for Ada Lovelace']);
    expect(rendered.bodyText).toBe(
      'First line\nsecond line\n\n\n  \nNext paragraph\n\nLast for Ada Lovelace',
    );
    expect(rendered.text).toContain('First line\nsecond line');
  });

  it('makes the links the sender supplies as values links of the HTML part, and nothing else', () => {
    const booking = getEmailTemplateDefinition('BOOKING_NOTIFICATION');
    const manageUrl = 'https://shop.example/hosted/acme/bookings/manage/m1_abc?x=1&y=2';
    const paymentUrl = 'https://shop.example/hosted/acme/checkout/pay?token=c1_def';
    const rendered = renderEmailTemplate({
      definition: booking,
      copy: {
        ...booking.defaults,
        bodyText: `{{ booking.eventMessage }}\n\nManage this booking: {{ booking.manageUrl }}\nPay: {{ booking.paymentUrl }} now\nhttps://typed-by-the-merchant.example`,
      },
      values: {
        ...sampleMergeValues(booking),
        'customer.name': 'https://named-by-the-customer.example',
        'booking.eventMessage': 'Pay by https://named-by-the-customer.example',
        'booking.manageUrl': manageUrl,
        'booking.paymentUrl': paymentUrl,
      },
      links: { action: paymentUrl },
      organization,
    });
    const body = bodyOf(rendered.html);
    expect(body).toContain(
      'Manage this booking: <a href="https://shop.example/hosted/acme/bookings/manage/m1_abc?x=1&amp;y=2" style="color:#18181b;">https://shop.example/hosted/acme/bookings/manage/m1_abc?x=1&amp;y=2</a><br>',
    );
    expect(body).toContain(`Pay: <a href="${paymentUrl}" style="color:#18181b;">${paymentUrl}</a> now<br>`);
    // The button, the management link and the payment link: no other text became a link.
    expect([...body.matchAll(/<a href="([^"]+)"/g)].map(([, href]) => href)).toEqual([
      'https://shop.example/hosted/acme/bookings/manage/m1_abc?x=1&amp;y=2',
      paymentUrl,
      paymentUrl,
    ]);
    expect(body).toContain('Pay by https://named-by-the-customer.example');
    expect(body).toContain('https://typed-by-the-merchant.example</p>');
    expect(rendered.text).toContain(`Manage this booking: ${manageUrl}\nPay: ${paymentUrl} now`);
  });

  it('keeps the subject, heading and call-to-action label on one line whatever the values hold', () => {
    const rendered = renderOrder({ 'order.number': '1042\r\nBcc: everyone@example.com' });
    expect(rendered.subject).toBe('Order 1042 Bcc: everyone@example.com confirmed');
    expect(rendered.subject).not.toMatch(/[\r\n]/);
  });

  it('puts the system link, the footer and no unsubscribe link in a transactional email', () => {
    const rendered = renderOrder({});
    expect(rendered.text).toContain(`View your order: ${links.action}`);
    expect(rendered.html).toContain('href="https://shop.example/account/orders/or1_abc?view=1&amp;lang=en"');
    expect(rendered.footer).toEqual([
      'Sent by Acme Outfitters.',
      'Questions? Contact help@acme.test.',
      'You are receiving this email because of your activity with Acme Outfitters.',
    ]);
    for (const line of rendered.footer) {
      expect(rendered.text).toContain(line);
      expect(rendered.html).toContain(line);
    }
    expect(rendered.text).not.toContain('Unsubscribe');
    expect(rendered.html).not.toContain('Unsubscribe');
  });

  it('renders a sign-in code email with no button and no sign-in link in either part', () => {
    const auth = getEmailTemplateDefinition('CUSTOMER_AUTH');
    const rendered = renderEmailTemplate({
      definition: auth,
      copy: auth.defaults,
      values: sampleMergeValues(auth),
      links: { action: null },
      organization,
    });
    expect(rendered.text).toContain('Use this code to sign in: 482913');
    for (const part of [rendered.text, rendered.html]) {
      expect(part).not.toContain('/account/verify');
      expect(part).not.toContain('Sign in:');
      expect(part).not.toContain('button');
    }
    expect(bodyOf(rendered.html)).not.toContain('<a href=');
    expect(rendered.text).toContain('--\nSent by Acme Outfitters.');
  });

  it('keeps the footer and unsubscribe link whatever the copy says, and copy cannot reach the links', () => {
    const copy = { subject: 'Hi', heading: 'Hi', bodyText: 'Only this.', ctaLabel: 'Go' };
    const rendered = renderEmailTemplate({
      definition: backInStock,
      copy,
      values: sampleMergeValues(backInStock),
      links: { action: 'https://shop.example/p', unsubscribe: 'https://shop.example/unsubscribe?t=a&b=c' },
      organization: { name: 'Acme', supportEmail: null },
    });

    expect(rendered.text).toContain('Unsubscribe: https://shop.example/unsubscribe?t=a&b=c');
    expect(rendered.html).toContain('<a href="https://shop.example/unsubscribe?t=a&amp;b=c"');
    expect(rendered.footer).toEqual([
      'Sent by Acme.',
      'You are receiving this email because you asked Acme for updates.',
    ]);
    expect(rendered.text).toContain('You are receiving this email because you asked Acme for updates.');
    expect(
      findCopyIssues(backInStock, { bodyText: '{{ links.unsubscribe }} {{ links.action }}' }),
    ).toHaveLength(2);
  });

  it('refuses to render a marketing email without an unsubscribe link, or a link that is not http(s)', () => {
    const base = {
      definition: backInStock,
      copy: backInStock.defaults,
      values: sampleMergeValues(backInStock),
      organization,
    };
    expect(() => renderEmailTemplate({ ...base, links: { action: 'https://shop.example/p' } })).toThrow(
      /unsubscribe link/,
    );
    expect(() =>
      renderEmailTemplate({
        ...base,
        links: { action: 'javascript:alert(1)', unsubscribe: 'https://x.example' },
      }),
    ).toThrow(/action link/);
  });

  it('ignores values the type does not declare and fills organization.name from the organization', () => {
    const rendered = renderEmailTemplate({
      definition: orderConfirmation,
      copy: { ...orderConfirmation.defaults, subject: '{{ organization.name }}' },
      values: {
        ...sampleMergeValues(orderConfirmation),
        'organization.name': 'Spoofed',
        'links.action': 'x',
      },
      links,
      organization,
    });
    expect(rendered.subject).toBe('Acme Outfitters');
  });

  it('fails loudly when a value the copy uses is missing', () => {
    expect(() =>
      renderEmailTemplate({
        definition: orderConfirmation,
        copy: orderConfirmation.defaults,
        values: {},
        links,
        organization,
      }),
    ).toThrow(/undefined variable/);
  });
});

describe('samples', () => {
  it('builds sample links under the base URL, with an unsubscribe link only where the type has one', () => {
    expect(sampleLinks(backInStock, 'http://localhost:3000/')).toEqual({
      action: 'http://localhost:3000/products/trail-runner-2',
      unsubscribe: 'http://localhost:3000/email/unsubscribe?token=sample',
    });
    expect(sampleLinks(orderConfirmation, 'http://localhost:3000').unsubscribe).toBeNull();
    const rendered = renderEmailTemplateSample(
      backInStock,
      backInStock.defaults,
      organization,
      'http://localhost:3000',
    );
    expect(rendered.text).toContain('Unsubscribe: http://localhost:3000/email/unsubscribe?token=sample');
  });

  it('writes the compliance footer from the organization', () => {
    expect(complianceFooter(orderConfirmation, { name: 'Shop', supportEmail: null })).toEqual([
      'Sent by Shop.',
      'You are receiving this email because of your activity with Shop.',
    ]);
  });
});
