import type { CarrierProvider } from '@commerce/fulfillment';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { type Actor, createRoleFixture, type RoleFixture } from '../support/roles.ts';

const BASE = '/merchant/shipping/sandbox-carrier';

const routes: [string, string, unknown?][] = [
  ['GET', BASE],
  ['PATCH', BASE, { behaviours: { rate: 'UNAVAILABLE' } }],
  ['POST', `${BASE}/funds`, { amountInCents: 100 }],
  ['POST', `${BASE}/labels/SBX0000/settle-void`, { outcome: 'VOIDED' }],
];

let h: Harness;
let shop: RoleFixture;

beforeAll(async () => {
  h = await createHarness();
  // Staff hold every group that could matter: the console is still Owner or Admin only.
  shop = await createRoleFixture(h, 'carrier-shop', ['fulfillment:operate', 'settings:manage']);
});
afterAll(async () => {
  await h.close();
});

async function ok<T>(response: Response, status = 200): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

interface SandboxRead {
  balanceInCents: number;
  currency: string;
  behaviours: Record<string, string>;
  purchaseCount: number;
  labels: { trackingNumber: string; status: string }[];
}

describe('GET /merchant/shipping/carriers', () => {
  it('lists the sandbox and its services to any member', async () => {
    for (const actor of ['owner', 'staffWithout'] as const) {
      expect(await ok(await shop.call(actor, 'GET', '/merchant/shipping/carriers'))).toEqual({
        data: [
          {
            carrier: 'sandbox',
            services: [
              { code: 'GROUND', name: 'Sandbox Ground', domesticOnly: false },
              { code: 'EXPRESS', name: 'Sandbox Express', domesticOnly: false },
              { code: 'OVERNIGHT', name: 'Sandbox Overnight', domesticOnly: true },
            ],
          },
        ],
        nextCursor: null,
      });
    }
    await expectError(await shop.call('outsider', 'GET', '/merchant/shipping/carriers'), 403, 'FORBIDDEN');
    await expectError(
      await shop.call('anonymous', 'GET', '/merchant/shipping/carriers'),
      401,
      'UNAUTHENTICATED',
    );
  });
});

describe('the sandbox carrier console', () => {
  it('reads, sets behaviours (persisting), adds funds: Owner and Admin', async () => {
    const initial = await ok<SandboxRead>(await shop.call('admin', 'GET', BASE));
    expect(initial).toEqual({
      balanceInCents: 10_000,
      currency: 'USD',
      behaviours: { rate: 'OK', balance: 'OK', purchase: 'OK', void: 'VOIDED', read: 'OK' },
      purchaseCount: 0,
      labels: [],
    });
    const patched = await ok<SandboxRead>(
      await shop.call('owner', 'PATCH', BASE, { behaviours: { purchase: 'TIMEOUT_COMMITTED' } }),
    );
    expect(patched.behaviours.purchase).toBe('TIMEOUT_COMMITTED');
    expect((await ok<SandboxRead>(await shop.call('owner', 'GET', BASE))).behaviours.purchase).toBe(
      'TIMEOUT_COMMITTED',
    );
    const funded = await ok<SandboxRead>(
      await shop.call('admin', 'POST', `${BASE}/funds`, { amountInCents: 500 }),
    );
    expect(funded.balanceInCents).toBe(10_500);
  });

  it('validates bodies: unknown behaviours and values, funds out of range', async () => {
    await expectError(
      await shop.call('owner', 'PATCH', BASE, { behaviours: { purchase: 'SOMETIMES' } }),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(
      await shop.call('owner', 'PATCH', BASE, { behaviours: { mood: 'OK' } }),
      400,
      'VALIDATION_FAILED',
    );
    for (const amountInCents of [0, 10_000_001, 1.5, '100'])
      await expectError(
        await shop.call('owner', 'POST', `${BASE}/funds`, { amountInCents }),
        400,
        'VALIDATION_FAILED',
      );
    await expectError(
      await shop.call('owner', 'POST', `${BASE}/labels/SBX0000/settle-void`, { outcome: 'MAYBE' }),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(
      await shop.call('owner', 'POST', `${BASE}/labels/SBX0000/settle-void`, { outcome: 'VOIDED' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  it.each(routes)(
    '%s %s is 403 for Staff whatever their groups, 401 without a credential',
    async (method, path, body) => {
      for (const actor of ['staffWith', 'staffWithout', 'outsider'] as Actor[])
        await expectError(await shop.call(actor, method, path, body), 403, 'FORBIDDEN');
      await expectError(await shop.call('anonymous', method, path, body), 401, 'UNAUTHENTICATED');
      const read = await ok<SandboxRead>(await shop.call('owner', 'GET', BASE));
      expect(read.behaviours.rate).toBe('OK');
    },
  );
});

describe('with another carrier configured', () => {
  let other: Harness;
  let otherShop: RoleFixture;
  beforeAll(async () => {
    const down = async () => ({ kind: 'UNAVAILABLE' as const, message: 'not reached' });
    const another: CarrierProvider = {
      carrier: 'another',
      services: () => [],
      rate: down,
      balance: down,
      purchase: down,
      findPurchase: down,
      requestVoid: down,
      readLabel: down,
      labelDocument: down,
    };
    other = await createHarness({ carrier: another });
    otherShop = await createRoleFixture(other, 'carrier-other');
  });
  afterAll(async () => {
    await other.close();
  });

  it.each(routes)('%s %s is 404 for the Owner', async (method, path, body) => {
    await expectError(await otherShop.call('owner', method, path, body), 404, 'RESOURCE_NOT_FOUND');
  });
});
