import { signInForTest } from '@commerce/customers/testing';
import { testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, expectError, type Harness } from '../support/harness.ts';
import { createGuestOrder } from '../support/orders.ts';

let h: Harness;
let shop: { id: string; slug: string };
let other: { id: string; slug: string };

beforeAll(async () => {
  h = await createHarness({ env: { HOSTED_CHECKOUT_URL: 'https://checkout.example' } });
  shop = await h.provision('account-shop', 'owner@account-shop.test');
  other = await h.provision('account-other', 'owner@account-other.test');
});
afterAll(async () => {
  await h.close();
});

const signIn = async (email: string, organizationId = shop.id) =>
  (await signInForTest(h.database.db, organizationId, email, h.clock.now())).token;

function as(token: string, slug = shop.slug) {
  return (method: string, path: string, body?: unknown) =>
    h.app.request(`/api/v1${path}`, {
      method,
      headers: {
        'x-organization-slug': slug,
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
}

async function ok<T>(response: Response, status = 200): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

interface Profile {
  id: string;
  email: string;
  emailVerified: boolean;
  pendingEmail: string | null;
  name: string | null;
  phone: string | null;
}

describe('profile', () => {
  it('reads and updates name and phone; null or empty clears', async () => {
    const call = as(await signIn('profile@example.com'));
    const before = await ok<Profile>(await call('GET', '/customer/account/profile'));
    expect(before).toMatchObject({
      email: 'profile@example.com',
      emailVerified: true,
      name: null,
      phone: null,
    });
    const updated = await ok<Profile>(
      await call('PATCH', '/customer/account/profile', { name: ' Ada Lovelace ', phone: '+44 20 1234' }),
    );
    expect(updated).toMatchObject({
      name: 'Ada Lovelace',
      phone: '+44 20 1234',
      email: 'profile@example.com',
    });
    const cleared = await ok<Profile>(
      await call('PATCH', '/customer/account/profile', { name: null, phone: '' }),
    );
    expect(cleared).toMatchObject({ name: null, phone: null });
  });

  it('refuses unknown keys and over-long values with 400', async () => {
    const call = as(await signIn('profile-bad@example.com'));
    await expectError(
      await call('PATCH', '/customer/account/profile', { emailVerified: false }),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(
      await call('PATCH', '/customer/account/profile', { name: 'x'.repeat(201) }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('changes the email only once the new address is verified', async () => {
    const call = as(await signIn('old@example.com'));
    const asked = await ok<Profile>(
      await call('PATCH', '/customer/account/profile', { email: 'New@Example.com' }),
    );
    expect(asked).toMatchObject({ email: 'old@example.com', pendingEmail: 'new@example.com' });
    expect((await ok<Profile>(await call('GET', '/customer/account/profile'))).email).toBe('old@example.com');

    const outbox = await h.database.db
      .selectFrom('outbox')
      .select('payload')
      .where('organization_id', '=', shop.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const mail = outbox
      .map((row) => row.payload as { to: string; text: string })
      .find((m) => m.to === 'new@example.com');
    const token = /token=(l1_[A-Za-z0-9_-]{43})/.exec(mail!.text)![1];
    const verified = await h.app.request('/api/v1/public/customer/auth/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-organization-slug': shop.slug },
      body: JSON.stringify({ token }),
    });
    const session = await ok<{ customerId: string }>(verified);
    expect(session.customerId).toBe(asked.id);
    const after = await ok<Profile>(await call('GET', '/customer/account/profile'));
    expect(after).toMatchObject({
      id: asked.id,
      email: 'new@example.com',
      pendingEmail: null,
      emailVerified: true,
    });
  });

  it('withdraws a pending change when the current email is sent; a withdrawn change cannot be verified', async () => {
    const call = as(await signIn('stay@example.com'));
    await ok(await call('PATCH', '/customer/account/profile', { email: 'moving@example.com' }));
    const withdrawn = await ok<Profile>(
      await call('PATCH', '/customer/account/profile', { email: 'stay@example.com' }),
    );
    expect(withdrawn.pendingEmail).toBeNull();
    const outbox = await h.database.db
      .selectFrom('outbox')
      .select('payload')
      .where('organization_id', '=', shop.id)
      .execute();
    const mail = outbox
      .map((row) => row.payload as { to: string; text: string })
      .find((m) => m.to === 'moving@example.com');
    const token = /token=(l1_[A-Za-z0-9_-]{43})/.exec(mail!.text)![1];
    const verified = await h.app.request('/api/v1/public/customer/auth/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-organization-slug': shop.slug },
      body: JSON.stringify({ token }),
    });
    await expectError(verified, 401, 'VERIFICATION_FAILED');
    expect((await ok<Profile>(await call('GET', '/customer/account/profile'))).email).toBe(
      'stay@example.com',
    );
  });
});

interface Address {
  id: string;
  line1: string;
  country: string;
  isDefaultShipping: boolean;
  isDefaultBilling: boolean;
}

const addressBody = (changes: Record<string, unknown> = {}) => ({
  name: 'Ada',
  line1: '1 Main St',
  city: 'Springfield',
  postalCode: '12345',
  country: 'us',
  ...changes,
});

describe('address book', () => {
  it('adds, lists, reads, updates and removes', async () => {
    const call = as(await signIn('book@example.com'));
    const first = await ok<Address>(await call('POST', '/customer/account/addresses', addressBody()), 201);
    expect(first).toMatchObject({
      line1: '1 Main St',
      country: 'US',
      isDefaultShipping: false,
      isDefaultBilling: false,
    });
    const second = await ok<Address>(
      await call('POST', '/customer/account/addresses', addressBody({ line1: '2 Elm St' })),
      201,
    );

    const page = await ok<{ data: Address[]; nextCursor: string | null }>(
      await call('GET', '/customer/account/addresses?limit=1'),
    );
    expect(page.data.map((a) => a.id)).toEqual([second.id]);
    expect(page.nextCursor).toBe(second.id);
    const rest = await ok<{ data: Address[]; nextCursor: string | null }>(
      await call('GET', `/customer/account/addresses?limit=1&cursor=${page.nextCursor}`),
    );
    expect(rest).toEqual({ data: [expect.objectContaining({ id: first.id })], nextCursor: null });

    expect(await ok<Address>(await call('GET', `/customer/account/addresses/${first.id}`))).toEqual(first);
    const updated = await ok<Address>(
      await call('PATCH', `/customer/account/addresses/${first.id}`, { line1: '3 Oak St', line2: null }),
    );
    expect(updated).toMatchObject({ id: first.id, line1: '3 Oak St', city: 'Springfield' });

    const removed = await call('DELETE', `/customer/account/addresses/${first.id}`);
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe('');
    await expectError(
      await call('GET', `/customer/account/addresses/${first.id}`),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await call('DELETE', `/customer/account/addresses/${first.id}`),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  it('validates the fields', async () => {
    const call = as(await signIn('book-bad@example.com'));
    for (const [body, path] of [
      [addressBody({ country: 'USA' }), 'country'],
      [addressBody({ line1: 'x'.repeat(301) }), 'line1'],
      [addressBody({ postalCode: '1'.repeat(33) }), 'postalCode'],
      [addressBody({ isDefault: true }), ''],
    ] as const) {
      const error = await expectError(
        await call('POST', '/customer/account/addresses', body),
        400,
        'VALIDATION_FAILED',
      );
      if (path) expect(error.details?.issues?.[0]?.path).toBe(path);
    }
  });

  it('takes a country from the ISO 3166 list checkout uses: UN and a name are 400, US is saved', async () => {
    const call = as(await signIn('book-country@example.com'));
    for (const country of ['UN', 'United States']) {
      const error = await expectError(
        await call('POST', '/customer/account/addresses', addressBody({ country })),
        400,
        'VALIDATION_FAILED',
      );
      expect(error.details?.issues?.[0]?.path).toBe('country');
      expect(error.details?.issues?.[0]?.message).toMatch(/country code/);
    }
    const saved = await ok<Address>(
      await call('POST', '/customer/account/addresses', addressBody({ country: 'US' })),
      201,
    );
    expect(saved.country).toBe('US');
    await expectError(
      await call('PATCH', `/customer/account/addresses/${saved.id}`, { country: 'UN' }),
      400,
      'VALIDATION_FAILED',
    );
    expect((await ok<Address>(await call('GET', `/customer/account/addresses/${saved.id}`))).country).toBe(
      'US',
    );
  });

  it('keeps one default shipping and one default billing address; a new default clears the old one', async () => {
    const call = as(await signIn('defaults@example.com'));
    const a = await ok<Address>(
      await call(
        'POST',
        '/customer/account/addresses',
        addressBody({ isDefaultShipping: true, isDefaultBilling: true }),
      ),
      201,
    );
    const b = await ok<Address>(
      await call('POST', '/customer/account/addresses', addressBody({ line1: 'B', isDefaultShipping: true })),
      201,
    );
    const read = async (id: string) => ok<Address>(await call('GET', `/customer/account/addresses/${id}`));
    expect(await read(a.id)).toMatchObject({ isDefaultShipping: false, isDefaultBilling: true });
    expect(await read(b.id)).toMatchObject({ isDefaultShipping: true, isDefaultBilling: false });

    await ok(await call('PATCH', `/customer/account/addresses/${b.id}`, { isDefaultBilling: true }));
    expect(await read(a.id)).toMatchObject({ isDefaultShipping: false, isDefaultBilling: false });
    expect(await read(b.id)).toMatchObject({ isDefaultShipping: true, isDefaultBilling: true });

    await ok(await call('PATCH', `/customer/account/addresses/${b.id}`, { isDefaultShipping: false }));
    expect(await read(b.id)).toMatchObject({ isDefaultShipping: false, isDefaultBilling: true });
  });

  it('has the database refuse a second default of a kind', async () => {
    const call = as(await signIn('db-default@example.com'));
    const a = await ok<Address>(
      await call('POST', '/customer/account/addresses', addressBody({ isDefaultShipping: true })),
      201,
    );
    const b = await ok<Address>(await call('POST', '/customer/account/addresses', addressBody()), 201);
    await expect(
      h.database.db
        .updateTable('customer_addresses')
        .set({ is_default_shipping: true })
        .where('id', '=', b.id)
        .execute(),
    ).rejects.toThrow(/customer_addresses_default_shipping_key|duplicate key/);
    expect(
      (await ok<Address>(await call('GET', `/customer/account/addresses/${a.id}`))).isDefaultShipping,
    ).toBe(true);
  });

  it("keeps customers apart: another customer's or another store's address is a neutral 404", async () => {
    const owner = as(await signIn('mine@example.com'));
    const address = await ok<Address>(await owner('POST', '/customer/account/addresses', addressBody()), 201);
    const stranger = as(await signIn('stranger@example.com'));
    const foreign = as(await signIn('mine@example.com', other.id), other.slug);
    const bodies = new Set<string>();
    for (const call of [stranger, foreign]) {
      for (const [method, body] of [['GET'], ['PATCH', { line1: 'Stolen' }], ['DELETE']] as const) {
        const error = await expectError(
          await call(method, `/customer/account/addresses/${address.id}`, body),
          404,
          'RESOURCE_NOT_FOUND',
        );
        bodies.add(`${error.code}:${error.message}`);
      }
      expect((await ok<{ data: Address[] }>(await call('GET', '/customer/account/addresses'))).data).toEqual(
        [],
      );
    }
    expect(bodies.size).toBe(1);
    expect((await ok<Address>(await owner('GET', `/customer/account/addresses/${address.id}`))).line1).toBe(
      '1 Main St',
    );
    await expectError(
      await stranger('GET', `/customer/account/addresses?cursor=${address.id}`),
      400,
      'VALIDATION_FAILED',
    );
  });

  it.skipIf(testDatabaseKind !== 'postgres')(
    'keeps one default under concurrent updates and creates',
    async () => {
      const call = as(await signIn('concurrent@example.com'));
      const addresses: Address[] = [];
      for (let index = 0; index < 6; index += 1) {
        addresses.push(
          await ok<Address>(
            await call('POST', '/customer/account/addresses', addressBody({ line1: `L${index}` })),
            201,
          ),
        );
      }
      const responses = await Promise.all([
        ...addresses.map((address) =>
          call('PATCH', `/customer/account/addresses/${address.id}`, {
            isDefaultShipping: true,
            isDefaultBilling: true,
          }),
        ),
        ...[1, 2, 3].map(() =>
          call(
            'POST',
            '/customer/account/addresses',
            addressBody({ isDefaultShipping: true, isDefaultBilling: true }),
          ),
        ),
      ]);
      expect(responses.map((response) => response.status).sort()).toEqual([
        200, 200, 200, 200, 200, 200, 201, 201, 201,
      ]);
      const page = await ok<{ data: Address[] }>(await call('GET', '/customer/account/addresses'));
      expect(page.data.filter((a) => a.isDefaultShipping)).toHaveLength(1);
      expect(page.data.filter((a) => a.isDefaultBilling)).toHaveLength(1);
    },
  );
});

interface Order {
  id: string;
  orderReference: string;
  orderNumber: number;
  customerEmail: string;
  notes?: unknown;
}

describe('own orders', () => {
  let adaOrders: Order[];
  let bobOrder: Order;
  let foreignOrder: Order;

  async function newItem(slug: string, ownerEmail: string): Promise<string> {
    const token = await h.token({ email: ownerEmail });
    const item = await ok<{ id: string }>(
      await h.app.request('/api/v1/merchant/items', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'x-organization-slug': slug,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ slug: 'tee', name: 'Tee', type: 'SALE', status: 'ACTIVE' }),
      }),
      201,
    );
    return item.id;
  }

  const place = (slug: string, itemId: string, customerEmail: string) =>
    createGuestOrder<Order>(h, slug, [{ itemId, name: 'Tee', quantity: 1, unitPriceInCents: 1000 }], {
      customerName: 'Someone',
      customerEmail,
      notes: 'merchant-only',
    });

  /** The merchant moves a legacy order along the status table. */
  async function move(slug: string, ownerEmail: string, order: Order, statuses: string[]): Promise<void> {
    const token = await h.token({ email: ownerEmail });
    for (const status of statuses) {
      await ok(
        await h.app.request(`/api/v1/merchant/orders/${order.id}/status`, {
          method: 'PATCH',
          headers: {
            authorization: `Bearer ${token}`,
            'x-organization-slug': slug,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ status }),
        }),
      );
    }
  }
  let itemId: string;

  beforeAll(async () => {
    itemId = await newItem(shop.slug, 'owner@account-shop.test');
    const otherItemId = await newItem(other.slug, 'owner@account-other.test');
    adaOrders = [];
    adaOrders.push(await place(shop.slug, itemId, 'buyer@example.com'));
    h.clock.advance(1000);
    bobOrder = await place(shop.slug, itemId, 'bob-buyer@example.com');
    h.clock.advance(1000);
    adaOrders.push(await place(shop.slug, itemId, 'Buyer@Example.com'));
    foreignOrder = await place(other.slug, otherItemId, 'buyer@example.com');
    // Legacy orders show in an account once the merchant has confirmed them.
    for (const order of [...adaOrders, bobOrder]) {
      await move(shop.slug, 'owner@account-shop.test', order, ['CONFIRMED']);
    }
    await move(other.slug, 'owner@account-other.test', foreignOrder, ['CONFIRMED']);
  });

  it('shows an anonymous legacy order only once the merchant confirmed it, and never one cancelled unconfirmed', async () => {
    const email = 'planted@example.com';
    const planted = await place(shop.slug, itemId, email);
    const call = as(await signIn(email));
    const hidden = [
      '/customer/account/orders',
      `/customer/account/orders/by-reference/${planted.orderReference}`,
      `/customer/account/orders/${planted.orderNumber}`,
    ];
    expect(await ok(await call('GET', hidden[0]!))).toEqual({ data: [], nextCursor: null });
    for (const path of hidden.slice(1)) await expectError(await call('GET', path), 404, 'RESOURCE_NOT_FOUND');
    await expectError(
      await call('GET', `/customer/account/orders?cursor=${planted.id}`),
      400,
      'VALIDATION_FAILED',
    );

    const turnedAway = await place(shop.slug, itemId, email);
    await move(shop.slug, 'owner@account-shop.test', turnedAway, ['CANCELLED']);
    for (const statuses of [['CONFIRMED'], ['PROCESSING'], ['COMPLETED']]) {
      await move(shop.slug, 'owner@account-shop.test', planted, statuses);
      const page = await ok<{ data: Order[] }>(await call('GET', '/customer/account/orders'));
      expect(page.data.map((order) => order.id)).toEqual([planted.id]);
      expect(await ok<Order>(await call('GET', hidden[1]!))).toMatchObject({ id: planted.id });
      expect(await ok<Order>(await call('GET', hidden[2]!))).toMatchObject({ id: planted.id });
    }
  });

  it('lists the orders placed with the verified email, newest first, without notes', async () => {
    const call = as(await signIn('buyer@example.com'));
    const page = await ok<{ data: Order[]; nextCursor: string | null }>(
      await call('GET', '/customer/account/orders'),
    );
    expect(page.data.map((order) => order.id)).toEqual([adaOrders[1]!.id, adaOrders[0]!.id]);
    expect(page.nextCursor).toBeNull();
    for (const order of page.data) expect(order).not.toHaveProperty('notes');

    const first = await ok<{ data: Order[]; nextCursor: string | null }>(
      await call('GET', '/customer/account/orders?limit=1'),
    );
    expect(first.data.map((order) => order.id)).toEqual([adaOrders[1]!.id]);
    const second = await ok<{ data: Order[]; nextCursor: string | null }>(
      await call('GET', `/customer/account/orders?limit=1&cursor=${first.nextCursor}`),
    );
    expect(second).toMatchObject({ data: [{ id: adaOrders[0]!.id }], nextCursor: null });
    await expectError(
      await call('GET', `/customer/account/orders?cursor=${bobOrder.id}`),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('reads an own order by reference and by number', async () => {
    const call = as(await signIn('buyer@example.com'));
    const order = adaOrders[0]!;
    const byReference = await ok<Order>(
      await call('GET', `/customer/account/orders/by-reference/${order.orderReference}`),
    );
    expect(byReference).toMatchObject({ id: order.id, orderReference: order.orderReference });
    expect(byReference).not.toHaveProperty('notes');
    const byNumber = await ok<Order>(await call('GET', `/customer/account/orders/${order.orderNumber}`));
    expect(byNumber).toEqual(byReference);
  });

  it('answers unknown, malformed, foreign-tenant and unowned orders with one neutral 404', async () => {
    const call = as(await signIn('buyer@example.com'));
    const paths = [
      `/customer/account/orders/by-reference/${bobOrder.orderReference}`,
      `/customer/account/orders/by-reference/${foreignOrder.orderReference}`,
      `/customer/account/orders/by-reference/or1_${'0'.repeat(32)}`,
      '/customer/account/orders/by-reference/not-a-reference',
      `/customer/account/orders/by-reference/${adaOrders[0]!.orderReference.toUpperCase()}`,
      `/customer/account/orders/${bobOrder.orderNumber}`,
      '/customer/account/orders/999999',
      '/customer/account/orders/01',
      '/customer/account/orders/abc',
    ];
    const bodies = new Set<string>();
    for (const path of paths) {
      const response = await call('GET', path);
      expect(response.status, path).toBe(404);
      const error = await errorOf(response);
      bodies.add(JSON.stringify({ ...error, requestId: undefined }));
    }
    expect(bodies.size).toBe(1);
    expect([...bodies][0]).toContain('RESOURCE_NOT_FOUND');
  });

  it("keeps another customer's history apart", async () => {
    const bob = as(await signIn('bob-buyer@example.com'));
    const page = await ok<{ data: Order[] }>(await bob('GET', '/customer/account/orders'));
    expect(page.data.map((order) => order.id)).toEqual([bobOrder.id]);
    const nobody = as(await signIn('no-orders@example.com'));
    expect(await ok(await nobody('GET', '/customer/account/orders'))).toEqual({ data: [], nextCursor: null });
  });
});
