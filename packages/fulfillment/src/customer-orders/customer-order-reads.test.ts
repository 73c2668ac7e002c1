import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { createLegacyOrder } from '@commerce/orders';
import { createOrderTenant } from '@commerce/orders/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getOrderByStatusToken } from './customer-order-reads.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

const tenant = () => createOrderTenant(handle.db, clock);

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('getOrderByStatusToken', () => {
  it('shows the order without notes, with its ship-to address, to the holder of its o1_ token', async () => {
    const shop = await tenant();
    const created = await createLegacyOrder(handle.db, shop.scope(), shop.body({ notes: 'internal' }));
    const read = await getOrderByStatusToken(handle.db, created.orderStatusToken);
    const { orderStatusToken: _token, ...order } = created;
    // A legacy order created without an address ships nowhere.
    expect(read).toEqual({ ...order, shipments: [], shippingAddress: null });
    expect(read).not.toHaveProperty('notes');
  });

  it('answers the same 404 for unknown and malformed tokens', async () => {
    for (const token of [`o1_${'A'.repeat(43)}`, 'o1_short', `a1_${'A'.repeat(43)}`, '']) {
      const error = await failureOf(getOrderByStatusToken(handle.db, token));
      expect(error.code).toBe('RESOURCE_NOT_FOUND');
      expect(error.message).toBe('Order not found');
    }
  });
});
