import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrderTenant, ORDER_STATUS_EFFECTS, type OrderTenant } from '../../test/orders.ts';
import { seedExternalPostage, seedShipment } from '../../test/shipments.ts';
import { updateOrderStatus } from '../order-status/update-order-status.ts';
import { recordSale } from '../sales-records/record-sale.ts';
import { createLegacyOrder } from './create-legacy-order.ts';
import { getOrder } from './get-order.ts';
import { updateShippingAddressInputSchema } from './schemas.ts';
import { updateShippingAddress } from './update-shipping-address.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const ADDRESS = {
  name: '  Ada Lovelace ',
  line1: '1 Main St',
  city: 'Lisbon',
  postalCode: '1000-001',
  country: 'pt',
};
const input = (id: string, changes: object = {}) =>
  updateShippingAddressInputSchema.parse({ id, ...ADDRESS, ...changes });

async function orderOf(quantity = 2) {
  const shop = await createOrderTenant(handle.db, clock);
  const order = await createLegacyOrder(
    handle.db,
    shop.scope(),
    shop.body({
      items: [
        { itemId: shop.itemId, variantId: shop.variantId, name: 'Tee', quantity, unitPriceInCents: 1500 },
      ],
    }),
  );
  const read = await getOrder(handle.db, shop.organizationId, order.id);
  return { shop, orderId: order.id, recordId: read.salesRecordId, lineId: read.items[0]!.id };
}

const auditsOf = (shop: OrderTenant, orderId: string) =>
  handle.db
    .selectFrom('audit_logs')
    .select(['action', 'metadata'])
    .where('organization_id', '=', shop.organizationId)
    .where('target_id', '=', orderId)
    .where('action', '=', 'order.shipping_address_updated')
    .orderBy('created_at')
    .orderBy('id')
    .execute();

describe('updateShippingAddress', () => {
  it('sets the snapshot on the record and the order, normalised, and audits the changed fields', async () => {
    const { shop, orderId, recordId } = await orderOf();
    const read = await updateShippingAddress(
      handle.db,
      shop.ctx(),
      input(orderId, { line2: '  ', phone: '+351 1' }),
    );
    const expected = {
      name: 'Ada Lovelace',
      line1: '1 Main St',
      line2: null,
      city: 'Lisbon',
      state: null,
      postalCode: '1000-001',
      country: 'PT',
      phone: '+351 1',
    };
    expect(read.shippingAddress).toEqual(expected);
    const record = await handle.db
      .selectFrom('sales_records')
      .select('shipping_address')
      .where('organization_id', '=', shop.organizationId)
      .where('id', '=', recordId)
      .executeTakeFirstOrThrow();
    expect(record.shipping_address).toEqual(expected);
    expect((await getOrder(handle.db, shop.organizationId, orderId)).shippingAddress).toEqual(expected);

    // The same address again writes nothing; a change by the record id audits only the changed names.
    await updateShippingAddress(handle.db, shop.ctx(), input(recordId, { phone: '+351 1' }));
    const changed = await updateShippingAddress(
      handle.db,
      shop.ctx(),
      input(recordId, { city: 'Porto', state: 'Norte' }),
    );
    expect(changed.shippingAddress).toMatchObject({ city: 'Porto', state: 'Norte', phone: null });
    expect(await auditsOf(shop, orderId)).toEqual([
      {
        action: 'order.shipping_address_updated',
        metadata: {
          orderId,
          recordId,
          fields: ['name', 'line1', 'city', 'postalCode', 'country', 'phone'],
        },
      },
      {
        action: 'order.shipping_address_updated',
        metadata: { orderId, recordId, fields: ['city', 'state', 'phone'] },
      },
    ]);
  });

  it('leaves existing postage as it was', async () => {
    const { shop, orderId, lineId } = await orderOf();
    const ready = await seedShipment(handle.db, {
      organizationId: shop.organizationId,
      orderId,
      lines: [{ lineId, quantity: 1 }],
      at: clock.now(),
      status: 'READY',
    });
    const postageId = await seedExternalPostage(handle.db, {
      organizationId: shop.organizationId,
      fulfillmentId: ready.fulfillmentId,
      carrier: 'UPS',
      trackingNumber: '1Z1',
      at: clock.now(),
    });
    await updateShippingAddress(handle.db, shop.ctx(), input(orderId));
    const postages = await handle.db
      .selectFrom('fulfillment_postages')
      .selectAll()
      .where('organization_id', '=', shop.organizationId)
      .execute();
    expect(postages).toHaveLength(1);
    expect(postages[0]).toMatchObject({ id: postageId, status: 'ACTIVE', tracking_number: '1Z1' });
  });

  it('refuses a cancelled or fully shipped order with ORDER_NOT_FULFILLABLE and changes nothing', async () => {
    const cancelled = await orderOf();
    await updateOrderStatus(
      handle.db,
      cancelled.shop.ctx(),
      { id: cancelled.orderId, status: 'CANCELLED' },
      ORDER_STATUS_EFFECTS,
    );
    const refused = await failureOf(
      updateShippingAddress(handle.db, cancelled.shop.ctx(), input(cancelled.orderId)),
    );
    expect(refused).toMatchObject({ code: 'ORDER_NOT_FULFILLABLE', details: { reason: 'CANCELLED' } });

    const shipped = await orderOf(2);
    await updateShippingAddress(handle.db, shipped.shop.ctx(), input(shipped.orderId));
    await seedShipment(handle.db, {
      organizationId: shipped.shop.organizationId,
      orderId: shipped.orderId,
      lines: [{ lineId: shipped.lineId, quantity: 1 }],
      at: clock.now(),
    });
    // Partly shipped: the rest may still go elsewhere.
    await updateShippingAddress(handle.db, shipped.shop.ctx(), input(shipped.orderId, { city: 'Faro' }));
    await seedShipment(handle.db, {
      organizationId: shipped.shop.organizationId,
      orderId: shipped.orderId,
      lines: [{ lineId: shipped.lineId, quantity: 1 }],
      at: clock.now(),
    });
    const frozen = await failureOf(
      updateShippingAddress(handle.db, shipped.shop.ctx(), input(shipped.recordId, { city: 'Braga' })),
    );
    expect(frozen).toMatchObject({ code: 'ORDER_NOT_FULFILLABLE', details: { reason: 'FULFILLED' } });
    expect(
      (await getOrder(handle.db, shipped.shop.organizationId, shipped.orderId)).shippingAddress,
    ).toMatchObject({
      city: 'Faro',
    });
    expect(await auditsOf(shipped.shop, shipped.orderId)).toHaveLength(2);
  });

  it('answers the neutral 404 for unknown, foreign, other-prefix ids and a record without an order', async () => {
    const { shop, orderId } = await orderOf();
    const other = await createOrderTenant(handle.db, clock);
    const sale = await recordSale(handle.db, {
      organizationId: shop.organizationId,
      source: 'CHECKOUT',
      currency: 'USD',
      customer: { name: 'Grace Hopper', email: 'grace@example.com', phone: null },
      lines: [
        {
          type: 'PRODUCT',
          itemId: shop.itemId,
          variantId: null,
          name: 'Tee',
          quantity: 1,
          unitPriceInCents: 100,
        },
      ],
      shippingInCents: 0,
      taxInCents: 0,
      taxIncluded: false,
      discountInCents: 0,
      paymentStatus: 'PAID',
      at: clock.now(),
    });
    for (const [ctx, id] of [
      [other.ctx(), orderId],
      [shop.ctx(), 'ord_unknown'],
      [shop.ctx(), 'ful_whatever'],
      [shop.ctx(), sale.record.id],
    ] as const) {
      expect(await failureOf(updateShippingAddress(handle.db, ctx, input(id)))).toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      });
    }
  });

  it('validates the body with issue paths', () => {
    const issues = (body: object) =>
      updateShippingAddressInputSchema.safeParse(body).error?.issues.map((issue) => issue.path.join('.'));
    expect(issues({ id: 'ord_1', ...ADDRESS, name: ' ' })).toEqual(['name']);
    expect(issues({ id: 'ord_1', ...ADDRESS, country: 'PRT' })).toEqual(['country']);
    expect(issues({ id: 'ord_1', ...ADDRESS, line1: 'x'.repeat(301) })).toEqual(['line1']);
    expect(issues({ id: 'ord_1', ...ADDRESS, postalCode: 'x'.repeat(33) })).toEqual(['postalCode']);
    expect(issues({ id: 'ord_1', ...ADDRESS, extra: 1 })).toEqual(['']);
    const { city: _city, ...withoutCity } = ADDRESS;
    expect(issues({ id: 'ord_1', ...withoutCity })).toEqual(['city']);
  });
});
