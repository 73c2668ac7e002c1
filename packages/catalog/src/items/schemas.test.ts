import { describe, expect, it } from 'vitest';
import {
  createItemInputSchema,
  itemListQuerySchema,
  reorderItemsInputSchema,
  resolveItemsInputSchema,
  updateItemInputSchema,
} from './schemas.ts';

const base = { slug: 'blue-widget', name: 'Blue widget', type: 'SALE' };

const issuePaths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.success ? [] : result.error!.issues.map((issue) => issue.path.join('.'));

describe('createItemInputSchema', () => {
  it('defaults status to DRAFT and accepts the optional fields', () => {
    expect(createItemInputSchema.parse(base)).toEqual({ ...base, status: 'DRAFT' });
    const full = createItemInputSchema.parse({
      ...base,
      status: 'ACTIVE',
      description: 'A widget',
      tags: ['blue'],
      priceInCents: 0,
      metafields: { material: 'steel', dims: { w: 2 } },
      sortOrder: -3,
    });
    expect(full).toMatchObject({ status: 'ACTIVE', priceInCents: 0, sortOrder: -3 });
  });

  it('takes slugs of lowercase words joined by single hyphens, at most 100 characters', () => {
    for (const slug of ['a', 'blue-widget', 'x1-2y', 'a'.repeat(100)]) {
      expect(createItemInputSchema.safeParse({ ...base, slug }).success, slug).toBe(true);
    }
    for (const slug of [
      '',
      'Blue',
      'blue_widget',
      '-blue',
      'blue-',
      'blue--widget',
      'blue widget',
      'a'.repeat(101),
    ]) {
      expect(issuePaths(createItemInputSchema.safeParse({ ...base, slug })), slug).toEqual(['slug']);
    }
  });

  it('needs a name of 1 to 200 characters after trimming, and a known type', () => {
    expect(createItemInputSchema.parse({ ...base, name: '  Widget ' }).name).toBe('Widget');
    expect(issuePaths(createItemInputSchema.safeParse({ ...base, name: '   ' }))).toEqual(['name']);
    expect(issuePaths(createItemInputSchema.safeParse({ ...base, name: 'x'.repeat(201) }))).toEqual(['name']);
    expect(issuePaths(createItemInputSchema.safeParse({ ...base, type: 'sale' }))).toEqual(['type']);
    const { type: _type, ...withoutType } = base;
    expect(issuePaths(createItemInputSchema.safeParse(withoutType))).toEqual(['type']);
  });

  it('refuses status ARCHIVED (archiving has its own route) and unknown keys', () => {
    const archived = createItemInputSchema.safeParse({ ...base, status: 'ARCHIVED' });
    expect(issuePaths(archived)).toEqual(['status']);
    expect(archived.error?.issues[0]?.message).toContain('archive');
    expect(createItemInputSchema.safeParse({ ...base, colour: 'blue' }).success).toBe(false);
  });

  it('bounds the description at 10,000 characters and accepts null', () => {
    expect(createItemInputSchema.safeParse({ ...base, description: 'x'.repeat(10_000) }).success).toBe(true);
    expect(createItemInputSchema.safeParse({ ...base, description: null }).success).toBe(true);
    expect(issuePaths(createItemInputSchema.safeParse({ ...base, description: 'x'.repeat(10_001) }))).toEqual(
      ['description'],
    );
  });

  it('trims tags, stores each once, and bounds them at 50 of 50 characters', () => {
    expect(createItemInputSchema.parse({ ...base, tags: [' blue ', 'sale', 'blue', 'Blue'] }).tags).toEqual([
      'blue',
      'sale',
      'Blue',
    ]);
    expect(
      createItemInputSchema.safeParse({ ...base, tags: Array.from({ length: 50 }, (_, i) => `t${i}`) })
        .success,
    ).toBe(true);
    expect(
      issuePaths(
        createItemInputSchema.safeParse({ ...base, tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }),
      ),
    ).toEqual(['tags']);
    expect(issuePaths(createItemInputSchema.safeParse({ ...base, tags: ['x'.repeat(51)] }))).toEqual([
      'tags.0',
    ]);
    expect(issuePaths(createItemInputSchema.safeParse({ ...base, tags: ['  '] }))).toEqual(['tags.0']);
  });

  it('takes priceInCents as a whole number of cents from 0, or null', () => {
    expect(createItemInputSchema.safeParse({ ...base, priceInCents: null }).success).toBe(true);
    for (const bad of [-1, 1.5, '100', 2_147_483_648]) {
      expect(
        issuePaths(createItemInputSchema.safeParse({ ...base, priceInCents: bad })),
        String(bad),
      ).toEqual(['priceInCents']);
    }
  });

  it('reserves metafield keys starting with __ and bounds the object', () => {
    const reserved = createItemInputSchema.safeParse({
      ...base,
      metafields: { __archivedFromStatus: 'ACTIVE' },
    });
    expect(issuePaths(reserved)).toEqual(['metafields.__archivedFromStatus']);
    expect(createItemInputSchema.safeParse({ ...base, metafields: { _single: 1 } }).success).toBe(true);
    const tooMany = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]));
    expect(issuePaths(createItemInputSchema.safeParse({ ...base, metafields: tooMany }))).toEqual([
      'metafields',
    ]);
    expect(
      issuePaths(createItemInputSchema.safeParse({ ...base, metafields: { big: 'x'.repeat(16_400) } })),
    ).toEqual(['metafields']);
    expect(createItemInputSchema.safeParse({ ...base, metafields: ['a'] }).success).toBe(false);
    expect(createItemInputSchema.safeParse({ ...base, metafields: { ['k'.repeat(101)]: 1 } }).success).toBe(
      false,
    );
  });
});

describe('updateItemInputSchema', () => {
  it('takes any subset without defaults, so an absent status stays absent', () => {
    expect(updateItemInputSchema.parse({ id: 'itm_1' })).toEqual({ id: 'itm_1' });
    expect(updateItemInputSchema.parse({ id: 'itm_1', name: ' New ' })).toEqual({ id: 'itm_1', name: 'New' });
  });

  it('refuses status ARCHIVED and unknown keys', () => {
    expect(issuePaths(updateItemInputSchema.safeParse({ id: 'itm_1', status: 'ARCHIVED' }))).toEqual([
      'status',
    ]);
    expect(updateItemInputSchema.safeParse({ id: 'itm_1', archivedAt: null }).success).toBe(false);
  });
});

describe('itemListQuerySchema', () => {
  it('reads the boolean forms case-insensitively and refuses anything else', () => {
    for (const [raw, value] of [
      ['true', true],
      ['TRUE', true],
      ['1', true],
      ['Yes', true],
      ['false', false],
      ['0', false],
      ['NO', false],
    ] as const) {
      expect(itemListQuerySchema.parse({ archived: raw }).archived, raw).toBe(value);
      expect(itemListQuerySchema.parse({ compositionCandidate: raw }).compositionCandidate, raw).toBe(value);
    }
    for (const bad of ['', 'y', 'on', '2', 'truthy']) {
      expect(issuePaths(itemListQuerySchema.safeParse({ archived: bad })), bad).toEqual(['archived']);
      expect(issuePaths(itemListQuerySchema.safeParse({ compositionCandidate: bad })), bad).toEqual([
        'compositionCandidate',
      ]);
    }
  });

  it('bounds limit to 1..200 with a default of 50', () => {
    expect(itemListQuerySchema.parse({}).limit).toBe(50);
    expect(itemListQuerySchema.parse({ limit: '200' }).limit).toBe(200);
    for (const bad of ['0', '201', '1.5', 'ten']) {
      expect(issuePaths(itemListQuerySchema.safeParse({ limit: bad })), bad).toEqual(['limit']);
    }
  });

  it('takes the enumerations exactly as written', () => {
    expect(itemListQuerySchema.parse({ type: 'RENTAL', status: 'ARCHIVED' })).toMatchObject({
      type: 'RENTAL',
      status: 'ARCHIVED',
    });
    expect(issuePaths(itemListQuerySchema.safeParse({ type: 'rental' }))).toEqual(['type']);
    expect(issuePaths(itemListQuerySchema.safeParse({ status: 'active' }))).toEqual(['status']);
  });
});

describe('reorderItemsInputSchema and resolveItemsInputSchema', () => {
  it('bounds the reorder list at 10,000 ids', () => {
    expect(reorderItemsInputSchema.safeParse({ orderedIds: [] }).success).toBe(true);
    const ids = Array.from({ length: 10_001 }, (_, i) => `itm_${i}`);
    expect(issuePaths(reorderItemsInputSchema.safeParse({ orderedIds: ids }))).toEqual(['orderedIds']);
    expect(reorderItemsInputSchema.safeParse({ orderedIds: ids.slice(1) }).success).toBe(true);
  });

  it('takes 1 to 100 ids to resolve', () => {
    expect(issuePaths(resolveItemsInputSchema.safeParse({ ids: [] }))).toEqual(['ids']);
    const ids = Array.from({ length: 101 }, (_, i) => `itm_${i}`);
    expect(issuePaths(resolveItemsInputSchema.safeParse({ ids }))).toEqual(['ids']);
    expect(resolveItemsInputSchema.safeParse({ ids: ids.slice(1) }).success).toBe(true);
  });
});
