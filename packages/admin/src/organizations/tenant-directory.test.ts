import { type DatabaseHandle, type NoticeHandlers, openDatabase } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_CHANGES_CHANNEL, TenantDirectory } from './tenant-directory.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
  await handle.db
    .insertInto('organizations')
    .values([
      { id: 'org_a', slug: 'shop-a', name: 'Shop A' },
      { id: 'org_b', slug: 'shop-b', name: 'Shop B' },
      { id: 'org_c', slug: 'shop-c', name: 'Shop C' },
    ])
    .execute();
});
afterAll(async () => {
  await handle.close();
});

/** A database whose notices the test sends itself, and whose listening state it sets. */
function fakeNotices() {
  let handlers: NoticeHandlers | undefined;
  let stopped = false;
  return {
    database: {
      listen: async (channel: string, given: NoticeHandlers) => {
        expect(channel).toBe(TENANT_CHANGES_CHANNEL);
        handlers = given;
        given.onState(true);
        return async () => {
          stopped = true;
        };
      },
    },
    notice: (organizationId: string) => handlers?.onNotice(organizationId),
    state: (listening: boolean) => handlers?.onState(listening),
    get stopped() {
      return stopped;
    },
  };
}

async function rename(organizationId: string, name: string) {
  await handle.db.updateTable('organizations').set({ name }).where('id', '=', organizationId).execute();
}

describe('TenantDirectory', () => {
  it('keeps nothing until it listens, then answers from memory until a notice', async () => {
    const directory = new TenantDirectory(handle.db);
    expect((await directory.bySlug('shop-a'))?.name).toBe('Shop A');
    expect(directory.size).toBe(0);
    await rename('org_a', 'Shop A renamed');
    expect((await directory.bySlug('shop-a'))?.name).toBe('Shop A renamed');

    const notices = fakeNotices();
    await directory.listen(notices.database);
    expect(directory.caching).toBe(true);
    expect((await directory.bySlug('shop-a'))?.name).toBe('Shop A renamed');
    expect(directory.size).toBe(1);
    await rename('org_a', 'Shop A again');
    // Not heard yet: the kept answer.
    expect((await directory.bySlug('shop-a'))?.name).toBe('Shop A renamed');
    notices.notice('org_a');
    expect(directory.size).toBe(0);
    expect((await directory.bySlug('shop-a'))?.name).toBe('Shop A again');
    await directory.close();
    expect(notices.stopped).toBe(true);
  });

  it('forgets only the tenant a notice names', async () => {
    const directory = new TenantDirectory(handle.db);
    const notices = fakeNotices();
    await directory.listen(notices.database);
    await directory.bySlug('shop-a');
    await directory.bySlug('shop-b');
    expect(directory.size).toBe(2);
    notices.notice('org_b');
    notices.notice('org_unknown');
    expect(directory.size).toBe(1);
    await directory.close();
  });

  it('does not keep an answer read while a change was heard', async () => {
    const directory = new TenantDirectory(handle.db);
    const notices = fakeNotices();
    await directory.listen(notices.database);
    const pending = directory.bySlug('shop-c');
    // The notice lands while the lookup is in flight (its answer may predate the change).
    notices.notice('org_c');
    expect((await pending)?.slug).toBe('shop-c');
    expect(directory.size).toBe(0);
    await directory.bySlug('shop-c');
    expect(directory.size).toBe(1);
    await directory.close();
  });

  it('keeps nothing while the listening connection is down, and drops all when it is back', async () => {
    const directory = new TenantDirectory(handle.db);
    const notices = fakeNotices();
    await directory.listen(notices.database);
    await directory.bySlug('shop-a');
    notices.state(false);
    expect(directory.caching).toBe(false);
    expect(directory.size).toBe(0);
    await directory.bySlug('shop-a');
    expect(directory.size).toBe(0);
    notices.state(true);
    await directory.bySlug('shop-a');
    expect(directory.size).toBe(1);
    await directory.close();
  });

  it('looks a tenant up again after the time-to-live, and keeps at most maxEntries', async () => {
    let now = 0;
    const directory = new TenantDirectory(handle.db, { ttlMs: 1_000, maxEntries: 2, now: () => now });
    const notices = fakeNotices();
    await directory.listen(notices.database);
    await directory.bySlug('shop-a');
    await rename('org_a', 'Shop A at ttl');
    now = 999;
    expect((await directory.bySlug('shop-a'))?.name).not.toBe('Shop A at ttl');
    now = 1_000;
    expect((await directory.bySlug('shop-a'))?.name).toBe('Shop A at ttl');

    await directory.bySlug('shop-b');
    // shop-a was used last before shop-b; a third tenant pushes out the least recently used.
    await directory.bySlug('shop-a');
    await directory.bySlug('shop-c');
    expect(directory.size).toBe(2);
    await rename('org_b', 'Shop B renamed');
    expect((await directory.bySlug('shop-b'))?.name).toBe('Shop B renamed');
    await directory.close();
  });

  it('never keeps an unknown or suspended slug', async () => {
    const directory = new TenantDirectory(handle.db);
    await directory.listen(fakeNotices().database);
    expect(await directory.bySlug('nobody')).toBeUndefined();
    expect(await directory.bySlug("x' or '1'='1")).toBeUndefined();
    expect(directory.size).toBe(0);
    await directory.close();
  });
});

describe('the database notices a committed tenant change', () => {
  it('notifies on a settings or organization change once it commits, never for a rollback', async () => {
    const directory = new TenantDirectory(handle.db);
    await directory.listen(handle);
    expect(directory.caching).toBe(true);

    await directory.bySlug('shop-b');
    expect(directory.size).toBe(1);
    // A rolled-back change sends nothing: the entry stays.
    await handle.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('organizations').set({ name: 'never' }).where('id', '=', 'org_b').execute();
        throw new Error('roll back');
      })
      .catch(() => undefined);
    // Notices arrive in commit order: once a later change to another tenant is heard, a notice of
    // the rolled-back change would have been heard before it.
    await directory.bySlug('shop-c');
    await handle.db
      .updateTable('organizations')
      .set({ name: 'Shop C later' })
      .where('id', '=', 'org_c')
      .execute();
    await expect
      .poll(async () => (await directory.bySlug('shop-c'))?.name, { timeout: 5_000 })
      .toBe('Shop C later');
    // shop-b is still kept beside shop-c: nothing told the directory to forget it.
    expect(directory.size).toBe(2);

    // A settings row written by hand (no code path of the service): heard once committed.
    let forgotten = false;
    const original = directory.forget.bind(directory);
    directory.forget = (organizationId) => {
      if (organizationId === 'org_b') forgotten = true;
      original(organizationId);
    };
    await handle.db
      .insertInto('organization_settings')
      .values({
        organization_id: 'org_b',
        business_profile: JSON.stringify({ displayName: 'B by hand' }),
        checkout_settings: '{}',
        api_settings: '{}',
        notifications: '{}',
      })
      .execute();
    await expect.poll(() => forgotten, { timeout: 5_000 }).toBe(true);
    expect((await directory.bySlug('shop-b'))?.profile.displayName).toBe('B by hand');

    forgotten = false;
    await handle.db
      .updateTable('organizations')
      .set({ status: 'SUSPENDED' })
      .where('id', '=', 'org_b')
      .execute();
    await expect.poll(() => forgotten, { timeout: 5_000 }).toBe(true);
    expect(await directory.bySlug('shop-b')).toBeUndefined();
    await directory.close();
  });

  it.skipIf(testDatabaseKind !== 'postgres')(
    'stops keeping tenants when its listening connection is ended, and listens again',
    async () => {
      // A connection of its own, named, so that only this test's listener is ended.
      const name = `tenant-directory-${Date.now()}`;
      const own = await openDatabase({
        databaseUrl: process.env.TEST_DATABASE_URL,
        schema: handle.schema,
        applicationName: name,
      });
      const directory = new TenantDirectory(own.db);
      await directory.listen(own);
      await directory.bySlug('shop-a');
      expect(directory.size).toBe(1);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${`${name}-listen`}`.execute(
        handle.db,
      );
      await expect.poll(() => directory.caching, { timeout: 5_000 }).toBe(false);
      expect(directory.size).toBe(0);
      await expect.poll(() => directory.caching, { timeout: 5_000 }).toBe(true);
      await directory.bySlug('shop-a');
      expect(directory.size).toBe(1);
      await directory.close();
      await own.close();
    },
  );
});
