import { PermanentDeliveryError, TransientDeliveryError } from '@commerce/notifications';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, type Harness } from '../support/harness.ts';
import { ACTORS, type Actor, createRoleFixture, expectedStatus, type RoleFixture } from '../support/roles.ts';

let h: Harness;
let f: RoleFixture;

beforeAll(async () => {
  h = await createHarness();
  // Staff with groups still may not edit templates: only Owner and Admin may.
  f = await createRoleFixture(h, 'templates', ['settings:manage', 'content:write']);
});
afterAll(async () => {
  await h.close();
});

const EDITORS: Actor[] = ['owner', 'admin'];
const MEMBERS: Actor[] = ['owner', 'admin', 'staffWith', 'staffWithout'];

interface TemplateRead {
  type: string;
  defaults: Record<string, string | null>;
  override: Record<string, string | null> | null;
  mergeVariables: { name: string; description: string; sample: string }[];
  sample: {
    subject: string;
    heading: string;
    bodyText: string;
    ctaLabel: string;
    text: string;
    html: string;
  };
  sender: { fromName: string; fromAddress: string; replyTo: string | null };
  compliance: { footer: string; unsubscribe: boolean };
}

async function auditCount(): Promise<number> {
  const rows = await h.database.db
    .selectFrom('audit_logs')
    .select('id')
    .where('organization_id', '=', f.organizationId)
    .where('action', '=', 'email_template.updated')
    .execute();
  return rows.length;
}

describe('GET /merchant/email-templates', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, MEMBERS, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const response = await f.call(actor, 'GET', '/merchant/email-templates');
      expect(response.status).toBe(status);
      if (status !== 200) {
        expect((await errorOf(response)).code).toBe(status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
        return;
      }
      const body = (await response.json()) as { data: TemplateRead[]; nextCursor: string | null };
      expect(body.nextCursor).toBeNull();
      expect(body.data).toHaveLength(21);
      const order = body.data.find((template) => template.type === 'ORDER_CONFIRMATION')!;
      expect(order.defaults.fromName).toBe('Org templates');
      expect(order.sample.subject).toBe('Order 1042 confirmed');
      expect(order.sender.fromAddress).toBe('no-reply@commerce.test');
      expect(order.mergeVariables.map((entry) => entry.name)).toContain('order.number');
      expect(order.compliance.unsubscribe).toBe(false);
    });
  }
});

describe('PATCH /merchant/email-templates/{type}', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, EDITORS, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const before = await auditCount();
      const heading = `Heading by ${actor}`;
      const response = await f.call(actor, 'PATCH', '/merchant/email-templates/ORDER_SHIPPED', { heading });
      expect(response.status).toBe(status);
      if (status !== 200) {
        expect((await errorOf(response)).code).toBe(status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
        expect(await auditCount()).toBe(before);
        return;
      }
      const body = (await response.json()) as TemplateRead;
      expect(body.type).toBe('ORDER_SHIPPED');
      expect(body.override).toMatchObject({ heading, subject: null });
      expect(body.sample.heading).toBe(heading);
      expect(await auditCount()).toBe(before + 1);
    });
  }

  it('names each unknown merge variable in its own issue (400)', async () => {
    const response = await f.call('owner', 'PATCH', '/merchant/email-templates/ORDER_SHIPPED', {
      subject: 'Shipped {{ order.numbr }}',
      bodyText: '{{ customer.firstName }} {% if x %}{% endif %}',
    });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details?.issues?.map((issue) => issue.path)).toEqual(['subject', 'bodyText', 'bodyText']);
    expect(error.details?.issues?.[0]?.message).toContain('"order.numbr"');
    expect(error.details?.issues?.some((issue) => issue.message.includes('"customer.firstName"'))).toBe(true);
  });

  it('refuses unknown keys, oversized slots and a subject with a line break (400)', async () => {
    for (const body of [{ footer: 'x' }, { bodyText: 'x'.repeat(5001) }, { subject: 'a\r\nBcc: x@y.z' }]) {
      const response = await f.call('owner', 'PATCH', '/merchant/email-templates/ORDER_SHIPPED', body);
      expect(response.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect((await errorOf(response)).code).toBe('VALIDATION_FAILED');
    }
  });

  it('resets a slot sent as null', async () => {
    await f.call('owner', 'PATCH', '/merchant/email-templates/RETURN_APPROVED', {
      subject: 'Custom',
      heading: 'H',
    });
    const response = await f.call('admin', 'PATCH', '/merchant/email-templates/RETURN_APPROVED', {
      subject: null,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as TemplateRead;
    expect(body.override).toMatchObject({ subject: null, heading: 'H' });
    expect(body.sample.subject).toBe('Your return for order 1042 is approved');
  });
});

describe('POST /merchant/email-templates/{type}/preview', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, EDITORS, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const response = await f.call(actor, 'POST', '/merchant/email-templates/BACK_IN_STOCK/preview', {
        draft: { subject: 'Preview of {{ item.name }} <b>' },
      });
      expect(response.status).toBe(status);
      if (status !== 200) {
        expect((await errorOf(response)).code).toBe(status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
        return;
      }
      const body = (await response.json()) as {
        type: string;
        sample: TemplateRead['sample'];
        compliance: TemplateRead['compliance'];
      };
      expect(body.type).toBe('BACK_IN_STOCK');
      expect(body.sample.subject).toBe('Preview of Trail Runner 2 <b>');
      expect(body.sample.html).toContain('Preview of Trail Runner 2 &lt;b&gt;');
      expect(body.compliance.unsubscribe).toBe(true);
    });
  }

  it('accepts an empty body and stores nothing', async () => {
    const response = await f.call('owner', 'POST', '/merchant/email-templates/BACK_IN_STOCK/preview');
    expect(response.status).toBe(200);
    const stored = await h.database.db
      .selectFrom('email_template_overrides')
      .selectAll()
      .where('organization_id', '=', f.organizationId)
      .where('type', '=', 'BACK_IN_STOCK')
      .execute();
    expect(stored).toEqual([]);
  });
});

describe('POST /merchant/email-templates/{type}/send-test', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, EDITORS, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const response = await f.call(
        actor,
        'POST',
        '/merchant/email-templates/ORDER_CONFIRMATION/send-test',
        {},
      );
      expect(response.status).toBe(status);
      if (status !== 200) {
        expect((await errorOf(response)).code).toBe(status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
        return;
      }
      const body = (await response.json()) as { status: string; to: string; outboxId: string };
      const email = f.users[actor as 'owner' | 'admin'].email;
      expect(body).toEqual({ status: 'SENT', to: email, outboxId: expect.stringMatching(/^obx_/) });
      const sent = await h.database.db
        .selectFrom('dev_emails')
        .selectAll()
        .where('outbox_id', '=', body.outboxId)
        .executeTakeFirstOrThrow();
      expect(sent).toMatchObject({ to_address: email, subject: '[Test] Order 1042 confirmed' });
      const row = await h.database.db
        .selectFrom('outbox')
        .select(['status', 'payload'])
        .where('id', '=', body.outboxId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'DONE', payload: null });
    });
  }

  it("accepts a CUSTOM_ADDRESS that is a member's email", async () => {
    const response = await f.call('owner', 'POST', '/merchant/email-templates/ORDER_SHIPPED/send-test', {
      mode: 'CUSTOM_ADDRESS',
      to: f.users.staffWithout.email,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'SENT', to: f.users.staffWithout.email });
  });

  it('refuses a stranger as CUSTOM_ADDRESS with 422, sends nothing and logs no address', async () => {
    const stranger = 'stranger-4711@elsewhere.example';
    const before = await h.database.db.selectFrom('outbox').select('id').execute();

    const response = await f.call('admin', 'POST', '/merchant/email-templates/ORDER_SHIPPED/send-test', {
      mode: 'CUSTOM_ADDRESS',
      to: stranger,
    });

    expect(response.status).toBe(422);
    const error = await errorOf(response);
    expect(error.code).toBe('EMAIL_POLICY_REJECTED');
    expect(error.message).not.toContain(stranger);
    expect(await h.database.db.selectFrom('outbox').select('id').execute()).toHaveLength(before.length);
    expect(JSON.stringify(h.logs)).not.toContain('stranger-4711');
    // The outsider's own address is not a member of this organization either.
    const outsider = await f.call('owner', 'POST', '/merchant/email-templates/ORDER_SHIPPED/send-test', {
      mode: 'CUSTOM_ADDRESS',
      to: f.users.outsider.email,
    });
    expect(outsider.status).toBe(422);
  });

  it('refuses CUSTOM_ADDRESS without `to` with 400', async () => {
    const response = await f.call('owner', 'POST', '/merchant/email-templates/ORDER_SHIPPED/send-test', {
      mode: 'CUSTOM_ADDRESS',
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details?.issues).toEqual([
      { path: 'to', message: 'is required with mode CUSTOM_ADDRESS' },
    ]);
  });
});

describe('unknown template type', () => {
  const routes: [string, string, unknown][] = [
    ['PATCH', '/merchant/email-templates/WELCOME', { subject: 'x' }],
    ['POST', '/merchant/email-templates/WELCOME/preview', {}],
    ['POST', '/merchant/email-templates/order_confirmation/send-test', {}],
  ];
  for (const [method, path, body] of routes) {
    it(`answers 404 RESOURCE_NOT_FOUND to ${method} ${path}`, async () => {
      const response = await f.call('owner', method, path, body);
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('RESOURCE_NOT_FOUND');
    });
  }
});

describe('send-test with a failing provider', () => {
  const cases = [
    ['cannot be reached', new TransientDeliveryError('SMTP ECONNECTION'), 503, 'PROVIDER_UNAVAILABLE'],
    [
      'refuses the message',
      new PermanentDeliveryError('SMTP EENVELOPE 550 at RCPT TO'),
      502,
      'PROVIDER_ERROR',
    ],
  ] as const;
  for (const [name, failure, status, code] of cases) {
    it(`answers ${status} ${code} when the provider ${name}, and fails the outbox row`, async () => {
      const failing = await createHarness({
        mailer: {
          kind: 'failing',
          async send() {
            throw failure;
          },
        },
      });
      try {
        const fixture = await createRoleFixture(failing, 'failing');
        const response = await fixture.call(
          'owner',
          'POST',
          '/merchant/email-templates/ORDER_SHIPPED/send-test',
          {},
        );
        expect(response.status).toBe(status);
        expect((await errorOf(response)).code).toBe(code);
        const rows = await failing.database.db
          .selectFrom('outbox')
          .select(['status', 'payload', 'last_error'])
          .where('organization_id', '=', fixture.organizationId)
          .execute();
        expect(rows).toEqual([{ status: 'FAILED', payload: null, last_error: failure.message }]);
      } finally {
        await failing.close();
      }
    });
  }
});

describe('send-test rate limit', () => {
  it('allows 10 test emails per ten minutes per organization and client, then answers 429 with Retry-After', async () => {
    const limited = await createRoleFixture(h, 'templates-limit');
    const send = () => limited.call('owner', 'POST', '/merchant/email-templates/ORDER_SHIPPED/send-test', {});
    for (let attempt = 0; attempt < 10; attempt++) expect((await send()).status).toBe(200);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).code).toBe('RATE_LIMIT_EXCEEDED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 600).toBe(true);
    const sent = await h.database.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('organization_id', '=', limited.organizationId)
      .executeTakeFirstOrThrow();
    expect(Number(sent.count)).toBe(10);
  });
});

describe('OpenAPI', () => {
  it('documents the four routes with their tag and error codes', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { tags?: string[]; responses: Record<string, { description?: string }> }>
      >;
    };
    const list = document.paths['/merchant/email-templates']?.get;
    const update = document.paths['/merchant/email-templates/{type}']?.patch;
    const preview = document.paths['/merchant/email-templates/{type}/preview']?.post;
    const sendTest = document.paths['/merchant/email-templates/{type}/send-test']?.post;
    for (const operation of [list, update, preview, sendTest]) {
      expect(operation?.tags).toEqual(['Merchant: email templates']);
    }
    for (const operation of [update, preview, sendTest]) {
      expect(operation?.responses['404']?.description).toContain('RESOURCE_NOT_FOUND');
      expect(operation?.responses['403']?.description).toContain('FORBIDDEN');
    }
    expect(sendTest?.responses['422']?.description).toContain('EMAIL_POLICY_REJECTED');
    expect(sendTest?.responses['502']?.description).toContain('PROVIDER_ERROR');
    expect(sendTest?.responses['503']?.description).toContain('PROVIDER_UNAVAILABLE');
  });
});
