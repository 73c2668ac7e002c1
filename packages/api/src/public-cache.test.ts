import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  answerKeys,
  type CachePurger,
  purgedObjectId,
  purgeKeys,
  REPURGE_DELAY_MS,
  repurgingCachePurger,
  writePurgeKeys,
} from './public-cache.ts';

const ORG = 'org_01JZZZZZZZZZZZZZZZZZZZZZZZ';

describe('answerKeys', () => {
  it('names the tenant, the kind and the object of a detail, the kind’s lists of a list', () => {
    expect(answerKeys({ kind: 'page', read: 'detail' }, ORG, 'pag_1')).toEqual([
      ORG,
      `${ORG}:pages`,
      'pag_1',
    ]);
    expect(answerKeys({ kind: 'page', read: 'list' }, ORG, undefined)).toEqual([
      ORG,
      `${ORG}:pages`,
      `${ORG}:page-list`,
    ]);
  });

  it('makes every collection answer depend on the item lists (its item count, its items)', () => {
    expect(answerKeys({ kind: 'collection', read: 'detail' }, ORG, 'col_1')).toContain(`${ORG}:item-list`);
    expect(answerKeys({ kind: 'collection', read: 'collection-items' }, ORG, 'col_1')).toEqual([
      ORG,
      `${ORG}:collections`,
      'col_1',
      `${ORG}:item-list`,
      `${ORG}:items`,
    ]);
  });
});

describe('purgeKeys and purgedObjectId', () => {
  it('purges a written object and its lists, and each answer that shows it', () => {
    // A variant write names its item.
    const variant = purgedObjectId('item', { itemId: 'itm_1', variantId: 'var_1' }, { id: 'var_1' });
    expect(purgeKeys('item', ORG, variant)).toEqual(['itm_1', `${ORG}:item-list`]);
    // Removing an item from a collection is a write of the collection, not of the item.
    const removal = purgedObjectId('collection', { id: 'col_1', itemId: 'itm_1' }, undefined);
    expect(purgeKeys('collection', ORG, removal)).toEqual([
      'col_1',
      `${ORG}:collection-list`,
      `${ORG}:items`,
    ]);
    // A create: the answer's id.
    expect(purgedObjectId('page', { slug: 'about' }, { id: 'pag_9' })).toBe('pag_9');
    // A reorder names no object: every answer of the kind.
    expect(purgeKeys('item', ORG, purgedObjectId('item', { ids: [] }, { data: [] }))).toEqual([
      `${ORG}:items`,
    ]);
    expect(purgeKeys('review', ORG, 'rev_1')).toEqual([`${ORG}:items`]);
    expect(purgeKeys('booking-resource', ORG, 'res_1')).toEqual([`${ORG}:booking-services`]);
    expect(purgeKeys('tenant', ORG, undefined)).toEqual([ORG]);
  });

  it('purges the items of a shipment’s lines that took stock, once each, and nothing for a shipment without a variant', () => {
    const shipment = {
      id: 'ful_1',
      lines: [
        { lineId: 'l1', itemId: 'itm_1', variantId: 'var_1', quantity: 1 },
        { lineId: 'l2', itemId: 'itm_1', variantId: 'var_2', quantity: 1 },
        { lineId: 'l3', itemId: 'itm_2', variantId: 'var_3', quantity: 2 },
        { lineId: 'l4', itemId: 'itm_3', variantId: null, quantity: 1 },
        { lineId: 'l5', itemId: null, variantId: null, quantity: 1 },
      ],
    };
    expect(writePurgeKeys('shipped-stock', ORG, { id: 'ord_1' }, shipment)).toEqual([
      'itm_1',
      'itm_2',
      `${ORG}:item-list`,
    ]);
    expect(writePurgeKeys('shipped-stock', ORG, {}, { id: 'ful_2', lines: [shipment.lines[3]] })).toEqual([]);
    // Any other write: the object it names.
    expect(writePurgeKeys('page', ORG, { id: 'pag_1' }, { id: 'pag_1' })).toEqual([
      'pag_1',
      `${ORG}:page-list`,
    ]);
  });

  it('every key a write purges is one some answer carries', () => {
    const carried = new Set(
      (['item', 'collection', 'page', 'booking-service'] as const).flatMap((kind) => [
        ...answerKeys({ kind, read: 'detail' }, ORG, 'obj_1'),
        ...answerKeys({ kind, read: 'list' }, ORG, undefined),
      ]),
    );
    for (const scope of [
      'item',
      'collection',
      'page',
      'booking-service',
      'review',
      'booking-resource',
      'tenant',
      'shipped-stock',
    ] as const) {
      for (const id of ['obj_1', undefined]) {
        for (const key of purgeKeys(scope, ORG, id)) expect(carried.has(key), `${scope} ${key}`).toBe(true);
      }
    }
  });
});

describe('repurgingCachePurger', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function recording(fail = false): CachePurger & { calls: string[][] } {
    const calls: string[][] = [];
    return {
      calls,
      purge: async (keys) => {
        calls.push(keys);
        if (fail) throw new Error('CDN down');
      },
    };
  }

  it('purges the same keys again after the delay (a CDN miss in flight before the commit can land after the first)', async () => {
    vi.useFakeTimers();
    const inner = recording();
    const purger = repurgingCachePurger(inner);
    await purger.purge(['itm_1', `${ORG}:item-list`]);
    await purger.purge([`${ORG}:pages`]);
    expect(inner.calls).toEqual([['itm_1', `${ORG}:item-list`], [`${ORG}:pages`]]);
    await vi.advanceTimersByTimeAsync(REPURGE_DELAY_MS - 1);
    expect(inner.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(inner.calls).toEqual([
      ['itm_1', `${ORG}:item-list`],
      [`${ORG}:pages`],
      ['itm_1', `${ORG}:item-list`],
      [`${ORG}:pages`],
    ]);
    // Twice, not more.
    await vi.advanceTimersByTimeAsync(REPURGE_DELAY_MS * 3);
    expect(inner.calls).toHaveLength(4);
  });

  it('reports a failed second purge to onError, and close drops the second purges not yet sent', async () => {
    vi.useFakeTimers();
    const failing = recording(true);
    const errors: string[][] = [];
    const purger = repurgingCachePurger(failing, {
      delayMs: 100,
      onError: (_error, keys) => errors.push(keys),
    });
    await expect(purger.purge(['pag_1'])).rejects.toThrow('CDN down');
    await vi.advanceTimersByTimeAsync(100);
    expect(failing.calls).toEqual([['pag_1'], ['pag_1']]);
    expect(errors).toEqual([['pag_1']]);

    const inner = recording();
    const closing = repurgingCachePurger(inner, { delayMs: 100 });
    await closing.purge(['pag_2']);
    closing.close();
    await vi.advanceTimersByTimeAsync(1000);
    expect(inner.calls).toEqual([['pag_2']]);
  });
});
