import { type AppError, hashToken, ManualClock } from '@commerce/core';
import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization, itemContext, seedItem, TEST_EMAIL_CONFIG } from '../../test/items.ts';
import { archiveItem } from '../items/archive-item.ts';
import { updateItem } from '../items/update-item.ts';
import { createVariant } from '../variants/create-variant.ts';
import { createVariantBodySchema, updateVariantChangesSchema } from '../variants/schemas.ts';
import { updateVariant } from '../variants/update-variant.ts';
import { subscribeToStockBodySchema } from './schemas.ts';
import { subscribeToStock } from './subscribe.ts';
import { unsubscribeByToken } from './unsubscribe.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-07-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

interface QueuedEmail {
  to: string;
  subject: string;
  text: string;
  templateType: string;
  subscriptionId: string;
}

/** The emails queued for `organizationId`, oldest first, with the fields these tests read. */
async function queued(db: Kysely<Database>, organizationId: string): Promise<QueuedEmail[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['payload', 'metadata'])
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const payload = row.payload as Record<string, string>;
    const metadata = row.metadata as Record<string, string>;
    return {
      to: payload.to!,
      subject: payload.subject!,
      text: payload.text!,
      templateType: metadata.templateType!,
      subscriptionId: metadata.subscriptionId!,
    };
  });
}

/** The raw token of the unsubscribe link in an email's text part. */
function unsubscribeTokenOf(email: QueuedEmail): string {
  const match = /Unsubscribe: https:\/\/shop\.example\/email\/unsubscribe\?token=(u1_[A-Za-z0-9_-]{43})/.exec(
    email.text,
  );
  if (!match) throw new Error('no unsubscribe link');
  return match[1]!;
}

/** An organization with an ACTIVE item "Lamp" and two variants, Brass (out of stock) and Steel (untracked). */
async function shop() {
  const organizationId = await insertOrganization(handle.db, 'stock');
  const ctx = () => itemContext(organizationId, clock.now());
  const item = await seedItem(handle.db, ctx(), { name: 'Lamp', status: 'ACTIVE' });
  const brass = await createVariant(
    handle.db,
    ctx(),
    item.id,
    createVariantBodySchema.parse({ name: 'Brass', inventoryQuantity: 0 }),
  );
  const steel = await createVariant(
    handle.db,
    ctx(),
    item.id,
    createVariantBodySchema.parse({ name: 'Steel' }),
  );
  const scope = () => ({ organizationId, at: clock.now(), email: TEST_EMAIL_CONFIG });
  const subscribe = (input: Record<string, unknown>, itemId = item.id) =>
    subscribeToStock(handle.db, scope(), itemId, subscribeToStockBodySchema.parse(input));
  const setStock = (variantId: string, inventoryQuantity: number | null) => {
    clock.advance(1000);
    return updateVariant(
      handle.db,
      ctx(),
      item.id,
      variantId,
      updateVariantChangesSchema.parse({ inventoryQuantity }),
    );
  };
  return { organizationId, ctx, item, brass, steel, subscribe, setStock };
}

describe('subscribeToStock', () => {
  it('creates an ACTIVE signup and queues the confirmation with the product link and an unsubscribe link', async () => {
    const { organizationId, item, brass, subscribe } = await shop();
    const signup = await subscribe({ email: 'ada@example.com', variantId: brass.id });

    expect(signup).toMatchObject({ itemId: item.id, variantId: brass.id, status: 'ACTIVE' });
    expect(signup.id).toMatch(/^stk_/);
    const [email, ...rest] = await queued(handle.db, organizationId);
    expect(rest).toEqual([]);
    expect(email).toMatchObject({
      to: 'ada@example.com',
      templateType: 'STOCK_NOTIFICATION_CONFIRMATION',
      subscriptionId: signup.id,
      subject: 'We will let you know when Lamp is back',
    });
    expect(email!.text).toContain('Lamp (Brass)');
    expect(email!.text).toContain(`https://shop.example/products/${item.slug}`);
    // Only the hash of the link's token is stored.
    const token = unsubscribeTokenOf(email!);
    const stored = await handle.db.selectFrom('email_unsubscribe_tokens').selectAll().execute();
    expect(stored.map((row) => row.token_hash)).toContain(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('is idempotent per (item, variant, email): a repeat returns the row and confirms again, without a second row', async () => {
    const { organizationId, brass, subscribe } = await shop();
    const first = await subscribe({ email: 'ada@example.com', variantId: brass.id });
    clock.advance(1000);
    const again = await subscribe({ email: 'ADA@Example.com', variantId: brass.id });

    expect(again).toEqual(first);
    const emails = await queued(handle.db, organizationId);
    expect(emails.map((email) => email.templateType)).toEqual([
      'STOCK_NOTIFICATION_CONFIRMATION',
      'STOCK_NOTIFICATION_CONFIRMATION',
    ]);
    // The item-level signup of the same email is another subscription.
    const anyVariant = await subscribe({ email: 'ada@example.com' });
    expect(anyVariant.id).not.toBe(first.id);
    expect(anyVariant.variantId).toBeNull();
    expect((await queued(handle.db, organizationId))[2]!.text).toContain('Lamp (any option)');
  });

  it('keeps an opt-out inactive and silent', async () => {
    const { organizationId, brass, subscribe } = await shop();
    await subscribe({ email: 'ada@example.com', variantId: brass.id });
    const [confirmation] = await queued(handle.db, organizationId);
    await unsubscribeByToken(handle.db, unsubscribeTokenOf(confirmation!), clock.now());

    const again = await subscribe({ email: 'ada@example.com', variantId: brass.id });
    expect(again.status).toBe('UNSUBSCRIBED');
    expect(await queued(handle.db, organizationId)).toHaveLength(1);
  });

  it('is a 404 for an unknown, draft, archived or foreign item, and 400 for a variant not of the item', async () => {
    const { organizationId, ctx, item, subscribe } = await shop();
    const other = await shop();
    const draft = await seedItem(handle.db, ctx(), { status: 'DRAFT' });
    const archived = await seedItem(handle.db, ctx(), { status: 'ACTIVE' });
    await archiveItem(handle.db, ctx(), archived.id);

    for (const itemId of ['itm_missing', draft.id, archived.id, other.item.id]) {
      await expect(subscribe({ email: 'ada@example.com' }, itemId)).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      } satisfies Partial<AppError>);
    }
    await expect(
      subscribe({ email: 'ada@example.com', variantId: other.brass.id }, item.id),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ path: 'variantId' }] } });
    expect(await queued(handle.db, organizationId)).toEqual([]);
  });

  it.skipIf(testDatabaseKind !== 'postgres')('makes one row under concurrent identical signups', async () => {
    const { organizationId, brass, subscribe } = await shop();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => subscribe({ email: 'race@example.com', variantId: brass.id })),
    );
    expect(new Set(results.map((result) => result.id)).size).toBe(1);
    const rows = await handle.db
      .selectFrom('stock_subscriptions')
      .select('id')
      .where('organization_id', '=', organizationId)
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe('back-in-stock emails', () => {
  it('queue one BACK_IN_STOCK per active signup of the variant or the item when stock goes from 0 to positive', async () => {
    const { organizationId, item, brass, steel, subscribe, setStock } = await shop();
    const variantSignup = await subscribe({ email: 'brass@example.com', variantId: brass.id });
    const itemSignup = await subscribe({ email: 'any@example.com' });
    const steelSignup = await subscribe({ email: 'steel@example.com', variantId: steel.id });
    const optedOut = await subscribe({ email: 'gone@example.com', variantId: brass.id });
    const gone = (await queued(handle.db, organizationId)).find(
      (email) => email.subscriptionId === optedOut.id,
    )!;
    await unsubscribeByToken(handle.db, unsubscribeTokenOf(gone), clock.now());
    const before = (await queued(handle.db, organizationId)).length;

    await setStock(brass.id, 5);

    const sent = (await queued(handle.db, organizationId)).slice(before);
    expect(sent.map((email) => [email.templateType, email.to]).sort()).toEqual([
      ['BACK_IN_STOCK', 'any@example.com'],
      ['BACK_IN_STOCK', 'brass@example.com'],
    ]);
    for (const email of sent) {
      expect(email.subject).toBe('Lamp is back in stock');
      expect(email.text).toContain('Lamp (Brass)');
      expect(email.text).toContain(`https://shop.example/products/${item.slug}`);
    }
    const statuses = await handle.db
      .selectFrom('stock_subscriptions')
      .select(['id', 'status', 'last_notified_at'])
      .where('organization_id', '=', organizationId)
      .execute();
    const statusOf = (id: string) => statuses.find((row) => row.id === id)!;
    expect(statusOf(variantSignup.id).status).toBe('NOTIFIED');
    expect(statusOf(itemSignup.id).status).toBe('NOTIFIED');
    expect(statusOf(variantSignup.id).last_notified_at).toEqual(clock.now());
    expect(statusOf(steelSignup.id).status).toBe('ACTIVE');
    expect(statusOf(optedOut.id).status).toBe('UNSUBSCRIBED');

    // More stock, or out and back in, sends nothing more to a NOTIFIED signup.
    await setStock(brass.id, 9);
    await setStock(brass.id, 0);
    await setStock(brass.id, 2);
    expect(await queued(handle.db, organizationId)).toHaveLength(before + 2);

    // Signing up again re-arms it.
    const rearmed = await subscribe({ email: 'brass@example.com', variantId: brass.id });
    expect(rearmed).toMatchObject({ id: variantSignup.id, status: 'ACTIVE' });
    await setStock(brass.id, 0);
    await setStock(brass.id, 1);
    const last = (await queued(handle.db, organizationId)).slice(-1)[0]!;
    expect(last).toMatchObject({ templateType: 'BACK_IN_STOCK', to: 'brass@example.com' });
  });

  it('send nothing for untracked stock, a hidden item, or stock that was never 0', async () => {
    const { organizationId, ctx, item, brass, steel, subscribe, setStock } = await shop();
    await subscribe({ email: 'any@example.com' });
    await subscribe({ email: 'brass@example.com', variantId: brass.id });
    const before = (await queued(handle.db, organizationId)).length;

    await setStock(steel.id, 4); // untracked → tracked is not a restock
    await setStock(brass.id, null); // 0 → untracked
    await setStock(brass.id, 0);
    await updateItem(handle.db, ctx(), item.id, { status: 'DRAFT' });
    await setStock(brass.id, 3); // the item is a draft: the signups wait
    expect(await queued(handle.db, organizationId)).toHaveLength(before);

    const statuses = await handle.db
      .selectFrom('stock_subscriptions')
      .select('status')
      .where('organization_id', '=', organizationId)
      .execute();
    expect(statuses.map((row) => row.status)).toEqual(['ACTIVE', 'ACTIVE']);
  });

  it.skipIf(testDatabaseKind !== 'postgres')(
    'notify an any-variant signup once when two variants come back at the same time',
    async () => {
      const { organizationId, ctx, item, brass, subscribe, setStock } = await shop();
      const copper = await createVariant(
        handle.db,
        ctx(),
        item.id,
        createVariantBodySchema.parse({ name: 'Copper', inventoryQuantity: 0 }),
      );
      await subscribe({ email: 'any@example.com' });
      const before = (await queued(handle.db, organizationId)).length;

      await Promise.all([setStock(brass.id, 1), setStock(copper.id, 1)]);

      const sent = (await queued(handle.db, organizationId)).slice(before);
      expect(sent.map((email) => email.to)).toEqual(['any@example.com']);
    },
  );
});

describe('unsubscribeByToken', () => {
  it('works from every email of a subscription, repeatedly, and names the item', async () => {
    const { organizationId, brass, subscribe, setStock } = await shop();
    await subscribe({ email: 'ada@example.com', variantId: brass.id });
    await setStock(brass.id, 3);
    const [confirmation, backInStock] = await queued(handle.db, organizationId);
    const firstToken = unsubscribeTokenOf(confirmation!);
    const secondToken = unsubscribeTokenOf(backInStock!);
    expect(firstToken).not.toBe(secondToken);

    const result = { status: 'UNSUBSCRIBED', subscriptionType: 'STOCK_NOTIFICATION', itemName: 'Lamp' };
    expect(await unsubscribeByToken(handle.db, secondToken, clock.now())).toEqual(result);
    expect(await unsubscribeByToken(handle.db, firstToken, clock.now())).toEqual(result);
    expect(await unsubscribeByToken(handle.db, secondToken, clock.now())).toEqual(result);
  });

  it('is one neutral 404 for a malformed or unknown token', async () => {
    for (const token of ['', 'nope', `u1_${'A'.repeat(43)}`, `s1_${'A'.repeat(43)}`]) {
      await expect(unsubscribeByToken(handle.db, token, clock.now())).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
        message: 'Unsubscribe link not found',
      });
    }
  });
});
