import type { Database } from '@commerce/db';
import { type CustomerEmailConfig, customerLink, enqueueTemplatedEmails } from '@commerce/notifications';
import type { Kysely } from 'kysely';
import { issueUnsubscribeLinks } from './unsubscribe-links.ts';

export interface RestockScope {
  organizationId: string;
  itemId: string;
  variantId: string;
  at: Date;
  email: CustomerEmailConfig;
}

/**
 * Call inside the transaction that took a tracked variant's stock from 0 to
 * a positive quantity. Every ACTIVE subscription to that variant, or to any
 * variant of its item, becomes NOTIFIED and gets one BACK_IN_STOCK email,
 * queued in the same transaction. The status flip is one guarded update, so
 * concurrent restocks (of two variants of one item) notify each subscription
 * once. Nothing is sent while the item is not visible (draft or archived) or
 * the variant is archived: the subscriptions wait for a later restock.
 * Returns how many emails were queued.
 */
export async function queueBackInStockEmails(trx: Kysely<Database>, scope: RestockScope): Promise<number> {
  const target = await trx
    .selectFrom('items')
    .innerJoin('variants', (join) =>
      join
        .onRef('variants.organization_id', '=', 'items.organization_id')
        .onRef('variants.item_id', '=', 'items.id'),
    )
    .select(['items.slug', 'items.name as itemName', 'variants.name as variantName'])
    .where('items.organization_id', '=', scope.organizationId)
    .where('items.id', '=', scope.itemId)
    .where('items.status', '=', 'ACTIVE')
    .where('items.archived_at', 'is', null)
    .where('variants.id', '=', scope.variantId)
    .where('variants.archived_at', 'is', null)
    .executeTakeFirst();
  if (!target) return 0;

  const notified = await trx
    .updateTable('stock_subscriptions')
    .set({ status: 'NOTIFIED', last_notified_at: scope.at, updated_at: scope.at })
    .where('organization_id', '=', scope.organizationId)
    .where('item_id', '=', scope.itemId)
    .where('status', '=', 'ACTIVE')
    .where((eb) => eb.or([eb('variant_id', '=', scope.variantId), eb('variant_id', 'is', null)]))
    .returning(['id', 'email'])
    .execute();
  if (notified.length === 0) return 0;

  const unsubscribeLinks = await issueUnsubscribeLinks(
    trx,
    scope.email,
    scope,
    notified.map((row) => row.id),
  );
  const action = customerLink(scope.email, `/products/${target.slug}`);
  await enqueueTemplatedEmails(
    trx,
    {
      organizationId: scope.organizationId,
      type: 'BACK_IN_STOCK',
      emailFrom: scope.email.emailFrom,
      at: scope.at,
    },
    notified.map((row, index) => ({
      to: row.email,
      values: {
        'item.name': target.itemName,
        // An any-variant signup hears about the variant that came back.
        'variant.name': target.variantName,
      },
      links: { action, unsubscribe: unsubscribeLinks[index]! },
      metadata: { subscriptionId: row.id, itemId: scope.itemId, variantId: scope.variantId },
    })),
  );
  return notified.length;
}
