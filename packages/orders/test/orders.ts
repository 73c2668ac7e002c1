import type { Clock } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import { createSandboxPaymentProvider } from '@commerce/payments';
import type { Kysely } from 'kysely';
import type { OrderStatusEffects } from '../src/order-status/update-order-status.ts';
import type { LegacyOrderScope } from '../src/orders/create-legacy-order.ts';
import {
  type CreateLegacyOrderInput,
  createLegacyOrderInputSchema,
  type OrderWriteContext,
} from '../src/orders/schemas.ts';

export const TEST_EMAIL_CONFIG: CustomerEmailConfig = {
  emailFrom: 'Platform <no-reply@platform.example>',
  linkBase: 'https://shop.example',
};

/** What a status change may cause beyond the order: the sandbox processor, the test email config. */
export const ORDER_STATUS_EFFECTS: OrderStatusEffects = {
  payments: createSandboxPaymentProvider({ webhookSecret: 'whsec_orders_test' }),
  email: TEST_EMAIL_CONFIG,
};

let sequence = 0;

export interface OrderTenant {
  organizationId: string;
  /** An ACTIVE item with one variant, a DRAFT item, an archived item. */
  itemId: string;
  variantId: string;
  draftItemId: string;
  archivedItemId: string;
  scope(currency?: string): LegacyOrderScope;
  ctx(): OrderWriteContext;
  /** A valid legacy order body with one line of the active item unless changed. */
  body(changes?: Partial<Record<keyof CreateLegacyOrderInput, unknown>>): CreateLegacyOrderInput;
}

/** A fresh organization with items to order, and the contexts of its public and merchant callers. */
export async function createOrderTenant(db: Kysely<Database>, clock: Clock): Promise<OrderTenant> {
  sequence += 1;
  const tag = `${process.pid}_${sequence}`;
  const organizationId = `org_orders_${tag}`;
  await db
    .insertInto('organizations')
    .values({ id: organizationId, slug: `orders-${process.pid}-${sequence}`, name: 'Order shop' })
    .execute();
  const item = (id: string, status: 'ACTIVE' | 'DRAFT' | 'ARCHIVED') => ({
    organization_id: organizationId,
    id,
    slug: id.replace(/_/g, '-').toLowerCase(),
    name: id,
    type: 'SALE' as const,
    status,
    archived_at: status === 'ARCHIVED' ? clock.now() : null,
  });
  const itemId = `itm_active_${tag}`;
  const draftItemId = `itm_draft_${tag}`;
  const archivedItemId = `itm_archived_${tag}`;
  await db
    .insertInto('items')
    .values([item(itemId, 'ACTIVE'), item(draftItemId, 'DRAFT'), item(archivedItemId, 'ARCHIVED')])
    .execute();
  const variantId = `var_${tag}`;
  await db
    .insertInto('variants')
    .values({ organization_id: organizationId, id: variantId, item_id: itemId, name: 'Blue' })
    .execute();
  return {
    organizationId,
    itemId,
    variantId,
    draftItemId,
    archivedItemId,
    scope: (currency = 'USD') => ({ organizationId, currency, email: TEST_EMAIL_CONFIG, at: clock.now() }),
    ctx: () => ({
      organizationId,
      actor: { userId: 'usr_orders_test', email: 'merchant@orders.test' },
      at: clock.now(),
    }),
    body: (changes = {}) =>
      createLegacyOrderInputSchema.parse({
        customerName: 'Ada Lovelace',
        customerEmail: 'ada@example.com',
        items: [{ itemId, variantId: null, name: 'Tee', quantity: 1, unitPriceInCents: 1500 }],
        ...changes,
      }),
  };
}
