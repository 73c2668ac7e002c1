import { describe, expect, it } from 'vitest';
import { answerKeys, purgedObjectId, purgeKeys } from './public-cache.ts';

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
    ] as const) {
      for (const id of ['obj_1', undefined]) {
        for (const key of purgeKeys(scope, ORG, id)) expect(carried.has(key), `${scope} ${key}`).toBe(true);
      }
    }
  });
});
