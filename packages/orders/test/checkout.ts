import { randomBytes } from 'node:crypto';
import { AppError, type Clock } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import type {
  CancelPaymentIntentOptions,
  CancelPaymentIntentResult,
  CreatePaymentIntentInput,
  PaymentIntentHandoff,
  PaymentProvider,
  RefundPaymentOptions,
} from '@commerce/payments';
import type { Kysely } from 'kysely';
import type { BindScope } from '../src/checkout/bind-checkout-session.ts';
import type { CreateCheckoutScope } from '../src/checkout/create-checkout-session.ts';
import type { CheckoutScope } from '../src/checkout/reprice-checkout-session.ts';
import { noTaxProvider } from '../src/tax/tax-provider.ts';

export const CHECKOUT_EMAIL_CONFIG: CustomerEmailConfig = {
  emailFrom: 'Platform <no-reply@platform.example>',
  linkBase: 'https://shop.example',
};

/**
 * A payment provider for tests that behaves like the real ones where checkout
 * relies on it: one intent per idempotency key, `<intentId>_secret_<random>`.
 * `failWith` makes the next calls throw (a processor refusing or unreachable).
 */
export interface FakePaymentProvider extends PaymentProvider {
  calls: CreatePaymentIntentInput[];
  intents: Map<string, PaymentIntentHandoff>;
  failWith: AppError | undefined;
  /** Resolved before each answer: lets a test hold calls in flight. */
  delay: () => Promise<void>;
  cancels: ({ intentId: string } & CancelPaymentIntentOptions)[];
  /** What the next cancellations answer (`canceled` unless a test says otherwise). */
  cancelResult: CancelPaymentIntentResult;
  /** Makes the next cancellations throw (an AppError: the processor refusing; another error: a bug). */
  cancelFailWith: Error | undefined;
  /** Run during each cancellation, before it answers: what happens while the call is in flight. */
  duringCancel: (intentId: string) => Promise<void>;
  refunds: ({ intentId: string } & RefundPaymentOptions)[];
  /** Makes the next refunds throw. */
  refundFailWith: AppError | undefined;
}

export function createFakePaymentProvider(): FakePaymentProvider {
  const provider: FakePaymentProvider = {
    kind: 'sandbox',
    assertChargeable() {},
    calls: [],
    intents: new Map(),
    failWith: undefined,
    delay: async () => {},
    cancels: [],
    cancelResult: { outcome: 'canceled' },
    cancelFailWith: undefined,
    duringCancel: async () => {},
    refunds: [],
    refundFailWith: undefined,
    async refundPayment(intentId, options) {
      provider.refunds.push({ intentId, ...options });
      if (provider.refundFailWith) throw provider.refundFailWith;
      return { outcome: 'refunded', refundId: `re_${options.idempotencyKey}` };
    },
    async cancelPaymentIntent(intentId, options) {
      provider.cancels.push({ intentId, ...options });
      await provider.duringCancel(intentId);
      if (provider.cancelFailWith) throw provider.cancelFailWith;
      return provider.cancelResult;
    },
    async createPaymentIntent(input) {
      provider.calls.push(input);
      await provider.delay();
      if (provider.failWith) throw provider.failWith;
      let intent = provider.intents.get(input.idempotencyKey);
      if (!intent) {
        const intentId = `pi_${randomBytes(12).toString('hex')}`;
        intent = {
          intentId,
          clientSecret: `${intentId}_secret_${randomBytes(12).toString('hex')}`,
          publishableKey: 'pk_test_fake',
        };
        provider.intents.set(input.idempotencyKey, intent);
      }
      return intent;
    },
    verifyWebhook() {
      throw new AppError('PROVIDER_ERROR', 'The fake provider verifies no webhooks');
    },
  };
  return provider;
}

let sequence = 0;

export interface CheckoutShop {
  organizationId: string;
  /** ACTIVE, price 1000, no variants. */
  plainItemId: string;
  /** ACTIVE, price 5000, with variants. */
  tee: { itemId: string; saleVariantId: string; pricedVariantId: string; unpricedVariantId: string };
  /** A tracked variant of its own item (price 2500), with `stock` units. */
  limited: { itemId: string; variantId: string };
  draftItemId: string;
  /** Rates for US and DE: standard 500, express 1500; free (0) from a subtotal of 10000. */
  rates: { standard: string; express: string; free: string };
  createScope(): CreateCheckoutScope;
  scope(): CheckoutScope;
  bindScope(changes?: Partial<BindScope>): BindScope;
  setStock(quantity: number | null): Promise<void>;
  stock(): Promise<number | null>;
}

export async function createCheckoutShop(
  db: Kysely<Database>,
  clock: Clock,
  options: { stock?: number } = {},
): Promise<CheckoutShop> {
  sequence += 1;
  const tag = `${process.pid}_${sequence}_${randomBytes(3).toString('hex')}`;
  const organizationId = `org_checkout_${tag}`;
  await db
    .insertInto('organizations')
    .values({ id: organizationId, slug: `checkout-${tag.replace(/_/g, '-')}`, name: 'Checkout shop' })
    .execute();
  const item = (id: string, status: 'ACTIVE' | 'DRAFT', price: number | null) => ({
    organization_id: organizationId,
    id,
    slug: id.replace(/_/g, '-').toLowerCase(),
    name: id.split('_')[1]!,
    type: 'SALE' as const,
    status,
    price_in_cents: price,
    archived_at: null,
  });
  const ids = {
    plain: `itm_plain_${tag}`,
    tee: `itm_tee_${tag}`,
    limited: `itm_limited_${tag}`,
    draft: `itm_draft_${tag}`,
  };
  await db
    .insertInto('items')
    .values([
      item(ids.plain, 'ACTIVE', 1000),
      item(ids.tee, 'ACTIVE', 5000),
      item(ids.limited, 'ACTIVE', null),
      item(ids.draft, 'DRAFT', 1000),
    ])
    .execute();
  const variant = (
    id: string,
    itemId: string,
    name: string,
    price: number | null,
    sale: number | null,
    stock: number | null,
  ) => ({
    organization_id: organizationId,
    id,
    item_id: itemId,
    name,
    price_in_cents: price,
    sale_price_in_cents: sale,
    inventory_quantity: stock,
  });
  const tee = {
    itemId: ids.tee,
    saleVariantId: `var_sale_${tag}`,
    pricedVariantId: `var_priced_${tag}`,
    unpricedVariantId: `var_unpriced_${tag}`,
  };
  const limited = { itemId: ids.limited, variantId: `var_limited_${tag}` };
  await db
    .insertInto('variants')
    .values([
      variant(tee.saleVariantId, ids.tee, 'Sale', 4000, 3000, null),
      variant(tee.pricedVariantId, ids.tee, 'Priced', 4500, null, null),
      variant(tee.unpricedVariantId, ids.tee, 'Unpriced', null, null, null),
      variant(limited.variantId, ids.limited, 'Only', 2500, null, options.stock ?? 5),
    ])
    .execute();
  const zoneId = `shz_${tag}`;
  await db
    .insertInto('shipping_zones')
    .values({
      organization_id: organizationId,
      id: zoneId,
      name: 'Main',
      countries: JSON.stringify(['US', 'DE']),
    })
    .execute();
  const rates = { standard: `shr_std_${tag}`, express: `shr_exp_${tag}`, free: `shr_free_${tag}` };
  const rate = (id: string, name: string, price: number, minimum: number | null, sortOrder: number) => ({
    organization_id: organizationId,
    id,
    zone_id: zoneId,
    name,
    price_in_cents: price,
    minimum_subtotal_in_cents: minimum,
    sort_order: sortOrder,
  });
  await db
    .insertInto('shipping_rates')
    .values([
      rate(rates.express, 'Express', 1500, null, 0),
      rate(rates.standard, 'Standard', 500, null, 1),
      rate(rates.free, 'Free', 0, 10_000, 2),
    ])
    .execute();
  return {
    organizationId,
    plainItemId: ids.plain,
    tee,
    limited,
    draftItemId: ids.draft,
    rates,
    createScope: () => ({ organizationId, currency: 'USD', ttlMinutes: 60, at: clock.now() }),
    scope: () => ({ organizationId, at: clock.now(), email: CHECKOUT_EMAIL_CONFIG }),
    bindScope: (changes = {}) => ({
      organizationId,
      at: clock.now(),
      email: CHECKOUT_EMAIL_CONFIG,
      tax: noTaxProvider,
      taxIncludedInPrices: false,
      holdMinutes: 60,
      client: { key: 'test-client', maxHeldUnits: 1000 },
      ...changes,
    }),
    setStock: async (quantity) => {
      await db
        .updateTable('variants')
        .set({ inventory_quantity: quantity })
        .where('organization_id', '=', organizationId)
        .where('id', '=', limited.variantId)
        .execute();
    },
    stock: async () =>
      (
        await db
          .selectFrom('variants')
          .select('inventory_quantity')
          .where('organization_id', '=', organizationId)
          .where('id', '=', limited.variantId)
          .executeTakeFirstOrThrow()
      ).inventory_quantity,
  };
}
