import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveBoxPreset, restoreBoxPreset } from './archive-box-preset.ts';
import { createBoxPreset } from './create-box-preset.ts';
import { getBoxPreset } from './get-box-preset.ts';
import { listBoxPresets } from './list-box-presets.ts';
import {
  type BoxPresetWriteContext,
  boxPresetListQuerySchema,
  createBoxPresetInputSchema,
  MAX_ACTIVE_BOX_PRESETS,
  updateBoxPresetInputSchema,
} from './schemas.ts';
import { updateBoxPreset } from './update-box-preset.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-11-26T09:00:00.000Z');

beforeAll(async () => {
  // Concurrency tests need real connections on PostgreSQL.
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

let sequence = 0;
async function tenant(): Promise<{ organizationId: string; ctx: () => BoxPresetWriteContext }> {
  sequence += 1;
  const organizationId = `org_box_${process.pid}_${sequence}`;
  await handle.db
    .insertInto('organizations')
    .values({ id: organizationId, slug: `box-${process.pid}-${sequence}`, name: 'Box shop' })
    .execute();
  return {
    organizationId,
    ctx: () => ({
      organizationId,
      actor: { userId: 'usr_box_test', email: 'merchant@box.test' },
      at: clock.now(),
    }),
  };
}

const body = (changes: Record<string, unknown> = {}) =>
  createBoxPresetInputSchema.parse({
    name: 'Small',
    innerLengthMm: 200,
    innerWidthMm: 150,
    innerHeightMm: 100,
    tareWeightGrams: 120,
    ...changes,
  });
const patch = (changes: Record<string, unknown>) => {
  const { id: _id, ...rest } = updateBoxPresetInputSchema.parse({ id: 'box_x', ...changes });
  return rest;
};
const listQuery = (query: Record<string, unknown> = {}) => boxPresetListQuerySchema.parse(query);

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const auditsOf = (organizationId: string, targetId: string) =>
  handle.db
    .selectFrom('audit_logs')
    .select(['action', 'metadata'])
    .where('organization_id', '=', organizationId)
    .where('target_id', '=', targetId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

describe('box preset bodies', () => {
  it('accepts the contract ranges and refuses values just outside them, naming the field', () => {
    expect(
      createBoxPresetInputSchema.safeParse(body({ innerLengthMm: 3000, tareWeightGrams: 0 })).success,
    ).toBe(true);
    const cases: [Record<string, unknown>, string][] = [
      [{ innerLengthMm: 0 }, 'innerLengthMm'],
      [{ innerWidthMm: 3001 }, 'innerWidthMm'],
      [{ innerHeightMm: 10.5 }, 'innerHeightMm'],
      [{ tareWeightGrams: -1 }, 'tareWeightGrams'],
      [{ tareWeightGrams: 50_001 }, 'tareWeightGrams'],
      [{ maxLoadGrams: 0 }, 'maxLoadGrams'],
      [{ maxLoadGrams: 150_001 }, 'maxLoadGrams'],
      [{ outerLengthMm: 199 }, 'outerLengthMm'],
      [{ outerHeightMm: 3001 }, 'outerHeightMm'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ colour: 'brown' }, ''],
    ];
    for (const [changes, path] of cases) {
      const result = createBoxPresetInputSchema.safeParse({
        name: 'Small',
        innerLengthMm: 200,
        innerWidthMm: 150,
        innerHeightMm: 100,
        tareWeightGrams: 120,
        ...changes,
      });
      expect(result.success, JSON.stringify(changes)).toBe(false);
      expect(
        result.error!.issues.map((issue) => issue.path.join('.')),
        JSON.stringify(changes),
      ).toContain(path);
    }
    const required = createBoxPresetInputSchema.safeParse({ name: 'Small' });
    expect(required.error!.issues.map((issue) => issue.path.join('.')).sort()).toEqual([
      'innerHeightMm',
      'innerLengthMm',
      'innerWidthMm',
      'tareWeightGrams',
    ]);
  });
});

describe('createBoxPreset', () => {
  it('stores a preset at revision 1 with outer dimensions defaulting to the inner ones, and audits it', async () => {
    const shop = await tenant();
    const preset = await createBoxPreset(
      handle.db,
      shop.ctx(),
      body({ name: ' Small ', outerLengthMm: 210 }),
    );
    expect(preset).toEqual({
      id: expect.stringMatching(/^box_[0-9A-Z]{26}$/),
      name: 'Small',
      innerLengthMm: 200,
      innerWidthMm: 150,
      innerHeightMm: 100,
      outerLengthMm: 210,
      outerWidthMm: 150,
      outerHeightMm: 100,
      tareWeightGrams: 120,
      maxLoadGrams: null,
      sortOrder: 0,
      revision: 1,
      archivedAt: null,
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
    });
    expect(await getBoxPreset(handle.db, shop.organizationId, preset.id)).toEqual(preset);
    expect(await auditsOf(shop.organizationId, preset.id)).toEqual([
      { action: 'box_preset.created', metadata: { boxPresetId: preset.id } },
    ]);
  });

  it('refuses a name taken by a non-archived preset, whatever its case, and frees it on archive', async () => {
    const shop = await tenant();
    const first = await createBoxPreset(handle.db, shop.ctx(), body({ name: 'Mailer' }));
    const error = await failure(createBoxPreset(handle.db, shop.ctx(), body({ name: 'MAILER' })));
    expect(error.code).toBe('BOX_PRESET_NAME_TAKEN');
    await archiveBoxPreset(handle.db, shop.ctx(), first.id);
    const second = await createBoxPreset(handle.db, shop.ctx(), body({ name: 'mailer' }));
    expect(second.name).toBe('mailer');
    // Restoring the first would make two active presets of one name.
    expect((await failure(restoreBoxPreset(handle.db, shop.ctx(), first.id))).code).toBe(
      'BOX_PRESET_NAME_TAKEN',
    );
    // Another tenant may use the name.
    const other = await tenant();
    await createBoxPreset(handle.db, other.ctx(), body({ name: 'Mailer' }));
  });

  it('keeps the name rule in the database too: the partial unique index refuses a second active name', async () => {
    const shop = await tenant();
    await createBoxPreset(handle.db, shop.ctx(), body({ name: 'Crate' }));
    await expect(
      handle.db
        .insertInto('box_presets')
        .values({
          organization_id: shop.organizationId,
          id: 'box_direct',
          name: 'crate',
          inner_length_mm: 1,
          inner_width_mm: 1,
          inner_height_mm: 1,
          tare_weight_grams: 0,
          created_at: clock.now(),
          updated_at: clock.now(),
          archived_at: null,
        })
        .execute(),
    ).rejects.toThrow(/box_presets_active_name_key/);
    await expect(
      handle.db
        .insertInto('box_presets')
        .values({
          organization_id: shop.organizationId,
          id: 'box_direct2',
          name: 'Thin',
          inner_length_mm: 10,
          inner_width_mm: 10,
          inner_height_mm: 10,
          outer_length_mm: 9,
          tare_weight_grams: 0,
          created_at: clock.now(),
          updated_at: clock.now(),
          archived_at: null,
        })
        .execute(),
    ).rejects.toThrow(/box_presets_outer_covers_inner/);
  });

  it('allows 200 non-archived presets, refuses the 201st, and counts archived ones out', async () => {
    const shop = await tenant();
    await handle.db
      .insertInto('box_presets')
      .values(
        Array.from({ length: MAX_ACTIVE_BOX_PRESETS - 1 }, (_, index) => ({
          organization_id: shop.organizationId,
          id: `box_bulk_${String(index).padStart(3, '0')}`,
          name: `Bulk ${index}`,
          inner_length_mm: 100,
          inner_width_mm: 100,
          inner_height_mm: 100,
          tare_weight_grams: 50,
          created_at: clock.now(),
          updated_at: clock.now(),
          archived_at: null,
        })),
      )
      .execute();
    const last = await createBoxPreset(handle.db, shop.ctx(), body({ name: 'Two hundredth' }));
    const refused = await failure(createBoxPreset(handle.db, shop.ctx(), body({ name: 'One too many' })));
    expect(refused.code).toBe('BOX_PRESET_LIMIT_REACHED');
    await archiveBoxPreset(handle.db, shop.ctx(), last.id);
    const again = await createBoxPreset(handle.db, shop.ctx(), body({ name: 'One too many' }));
    // The archived one cannot come back while 200 are active.
    expect((await failure(restoreBoxPreset(handle.db, shop.ctx(), last.id))).code).toBe(
      'BOX_PRESET_LIMIT_REACHED',
    );
    await archiveBoxPreset(handle.db, shop.ctx(), again.id);
    expect((await restoreBoxPreset(handle.db, shop.ctx(), last.id)).archivedAt).toBeNull();
  });
});

describe('updateBoxPreset', () => {
  it('writes only changed fields, bumps the revision once per change and audits the field names', async () => {
    const shop = await tenant();
    const preset = await createBoxPreset(handle.db, shop.ctx(), body());
    clock.advance(60_000);
    const updated = await updateBoxPreset(
      handle.db,
      shop.ctx(),
      preset.id,
      patch({ name: 'Small box', maxLoadGrams: 5000, tareWeightGrams: 120, expectedRevision: 1 }),
    );
    expect(updated).toMatchObject({
      name: 'Small box',
      maxLoadGrams: 5000,
      tareWeightGrams: 120,
      revision: 2,
      updatedAt: clock.now().toISOString(),
    });
    const unchanged = await updateBoxPreset(handle.db, shop.ctx(), preset.id, patch({ name: 'Small box' }));
    expect(unchanged.revision).toBe(2);
    const cleared = await updateBoxPreset(handle.db, shop.ctx(), preset.id, patch({ maxLoadGrams: null }));
    expect(cleared).toMatchObject({ maxLoadGrams: null, revision: 3 });
    expect(await auditsOf(shop.organizationId, preset.id)).toEqual([
      { action: 'box_preset.created', metadata: { boxPresetId: preset.id } },
      {
        action: 'box_preset.updated',
        metadata: { boxPresetId: preset.id, fields: ['name', 'maxLoadGrams'] },
      },
      { action: 'box_preset.updated', metadata: { boxPresetId: preset.id, fields: ['maxLoadGrams'] } },
    ]);
  });

  it('answers 409 STALE_STATE for another expectedRevision and changes nothing', async () => {
    const shop = await tenant();
    const preset = await createBoxPreset(handle.db, shop.ctx(), body());
    await updateBoxPreset(handle.db, shop.ctx(), preset.id, patch({ sortOrder: 5 }));
    const stale = await failure(
      updateBoxPreset(handle.db, shop.ctx(), preset.id, patch({ sortOrder: 9, expectedRevision: 1 })),
    );
    expect(stale.code).toBe('STALE_STATE');
    expect(stale.details).toEqual({ revision: 2 });
    expect(await getBoxPreset(handle.db, shop.organizationId, preset.id)).toMatchObject({
      sortOrder: 5,
      revision: 2,
    });
  });

  it('lets unset outer dimensions follow the inner ones, and keeps set ones at least the inner ones', async () => {
    const shop = await tenant();
    const preset = await createBoxPreset(handle.db, shop.ctx(), body({ outerWidthMm: 160 }));
    const grown = await updateBoxPreset(handle.db, shop.ctx(), preset.id, patch({ innerLengthMm: 250 }));
    expect(grown).toMatchObject({ innerLengthMm: 250, outerLengthMm: 250, outerWidthMm: 160 });
    const refused = await failure(
      updateBoxPreset(handle.db, shop.ctx(), preset.id, patch({ innerWidthMm: 170 })),
    );
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(refused.details).toEqual({
      issues: [{ path: 'outerWidthMm', message: 'must be at least innerWidthMm' }],
    });
    const followed = await updateBoxPreset(
      handle.db,
      shop.ctx(),
      preset.id,
      patch({ innerWidthMm: 170, outerWidthMm: null }),
    );
    expect(followed).toMatchObject({ innerWidthMm: 170, outerWidthMm: 170 });
  });

  it('refuses a rename to an active name and answers an unknown or foreign id with the neutral 404', async () => {
    const shop = await tenant();
    await createBoxPreset(handle.db, shop.ctx(), body({ name: 'A' }));
    const b = await createBoxPreset(handle.db, shop.ctx(), body({ name: 'B' }));
    expect((await failure(updateBoxPreset(handle.db, shop.ctx(), b.id, patch({ name: 'a' })))).code).toBe(
      'BOX_PRESET_NAME_TAKEN',
    );
    // The preset's own name in another case is a rename, not a clash.
    expect((await updateBoxPreset(handle.db, shop.ctx(), b.id, patch({ name: 'b' }))).name).toBe('b');
    const other = await tenant();
    for (const attempt of [
      () => updateBoxPreset(handle.db, other.ctx(), b.id, patch({ name: 'C' })),
      () => getBoxPreset(handle.db, other.organizationId, b.id),
      () => archiveBoxPreset(handle.db, other.ctx(), b.id),
      () => restoreBoxPreset(handle.db, other.ctx(), b.id),
      () => getBoxPreset(handle.db, shop.organizationId, 'box_unknown'),
    ]) {
      expect((await failure(attempt())).code).toBe('RESOURCE_NOT_FOUND');
    }
  });
});

describe('archive and restore', () => {
  it('are idempotent: the second call answers the preset unchanged and records nothing', async () => {
    const shop = await tenant();
    const preset = await createBoxPreset(handle.db, shop.ctx(), body());
    clock.advance(1000);
    const archived = await archiveBoxPreset(handle.db, shop.ctx(), preset.id);
    expect(archived.archivedAt).toBe(clock.now().toISOString());
    clock.advance(1000);
    expect(await archiveBoxPreset(handle.db, shop.ctx(), preset.id)).toEqual(archived);
    const restored = await restoreBoxPreset(handle.db, shop.ctx(), preset.id);
    expect(restored).toMatchObject({ archivedAt: null, revision: 1 });
    expect(await restoreBoxPreset(handle.db, shop.ctx(), preset.id)).toEqual(restored);
    expect((await auditsOf(shop.organizationId, preset.id)).map((audit) => audit.action)).toEqual([
      'box_preset.created',
      'box_preset.archived',
      'box_preset.restored',
    ]);
  });
});

describe('listBoxPresets', () => {
  it('orders by sortOrder, name, id, pages by cursor, and hides archived presets unless asked', async () => {
    const shop = await tenant();
    const make = (name: string, sortOrder: number) =>
      createBoxPreset(handle.db, shop.ctx(), body({ name, sortOrder }));
    const c = await make('C', 0);
    const a = await make('A', 0);
    const z = await make('Z', -1);
    const b = await make('B', 1);
    await archiveBoxPreset(handle.db, shop.ctx(), a.id);

    const all = await listBoxPresets(handle.db, shop.organizationId, listQuery({ archived: 'YES' }));
    expect(all.data.map((preset) => preset.id)).toEqual([z.id, a.id, c.id, b.id]);
    const active = await listBoxPresets(handle.db, shop.organizationId, listQuery());
    expect(active.data.map((preset) => preset.id)).toEqual([z.id, c.id, b.id]);

    const first = await listBoxPresets(
      handle.db,
      shop.organizationId,
      listQuery({ limit: '2', archived: '1' }),
    );
    expect(first.data.map((preset) => preset.id)).toEqual([z.id, a.id]);
    expect(first.nextCursor).toBe(a.id);
    const second = await listBoxPresets(
      handle.db,
      shop.organizationId,
      listQuery({ limit: '2', archived: 'true', cursor: first.nextCursor }),
    );
    expect(second).toEqual({
      data: [c, b].map((preset) => expect.objectContaining({ id: preset.id })),
      nextCursor: null,
    });
    // An archived cursor still marks the place in the active list.
    const afterArchived = await listBoxPresets(handle.db, shop.organizationId, listQuery({ cursor: a.id }));
    expect(afterArchived.data.map((preset) => preset.id)).toEqual([c.id, b.id]);

    expect(boxPresetListQuerySchema.safeParse({ archived: 'maybe' }).success).toBe(false);
    const other = await tenant();
    const foreignCursor = await failure(
      listBoxPresets(handle.db, other.organizationId, listQuery({ cursor: c.id })),
    );
    expect(foreignCursor.code).toBe('VALIDATION_FAILED');
  });
});

describe.runIf(testDatabaseKind === 'postgres')('box presets under concurrency (PostgreSQL)', () => {
  it('creates one preset of 12 concurrent creates of one name; the rest are 409 BOX_PRESET_NAME_TAKEN', async () => {
    const shop = await tenant();
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, index) =>
        createBoxPreset(handle.db, shop.ctx(), body({ name: index % 2 === 0 ? 'Race' : 'RACE' })),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const codes = results.flatMap((result) =>
      result.status === 'rejected' ? [(result.reason as AppError).code] : [],
    );
    expect(codes).toEqual(Array.from({ length: 11 }, () => 'BOX_PRESET_NAME_TAKEN'));
  });

  it('never passes 200 non-archived presets under concurrent creates and restores', async () => {
    const shop = await tenant();
    await handle.db
      .insertInto('box_presets')
      .values(
        Array.from({ length: MAX_ACTIVE_BOX_PRESETS - 3 }, (_, index) => ({
          organization_id: shop.organizationId,
          id: `box_fill_${String(index).padStart(3, '0')}`,
          name: `Fill ${index}`,
          inner_length_mm: 100,
          inner_width_mm: 100,
          inner_height_mm: 100,
          tare_weight_grams: 50,
          created_at: clock.now(),
          updated_at: clock.now(),
          archived_at: index < 5 ? clock.now() : null,
        })),
      )
      .execute();
    // 192 active, 5 archived: 8 places left, wanted by 15 creates and 5 restores at once.
    const attempts = [
      ...Array.from({ length: 15 }, (_, index) =>
        createBoxPreset(handle.db, shop.ctx(), body({ name: `Concurrent ${index}` })),
      ),
      ...Array.from({ length: 5 }, (_, index) =>
        restoreBoxPreset(handle.db, shop.ctx(), `box_fill_${String(index).padStart(3, '0')}`),
      ),
    ];
    const results = await Promise.allSettled(attempts);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(8);
    for (const result of results) {
      if (result.status === 'rejected')
        expect((result.reason as AppError).code).toBe('BOX_PRESET_LIMIT_REACHED');
    }
    const { count } = await handle.db
      .selectFrom('box_presets')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('organization_id', '=', shop.organizationId)
      .where('archived_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(MAX_ACTIVE_BOX_PRESETS);
  });
});
