import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../test/database.ts';
import { extractSnapshot, openEmbeddedAtLatest, snapshotKey, snapshotKeyOf } from './embedded-snapshot.ts';
import { migrations } from './migrations/index.ts';
import type { DatabaseHandle } from './open-database.ts';

// PGlite only: this is how a new embedded database is made. Each case pays one initdb at most.
// Each of these runs PGlite's initdb and every migration at least once: seconds on an idle machine,
// far more when the test files of other packages share its two cores.
describe.skipIf(testDatabaseKind === 'postgres')('openEmbeddedAtLatest', { timeout: 120_000 }, () => {
  let root: string;
  let snapshots: string;
  const open: DatabaseHandle[] = [];
  const openAt = async (dataDir: string | undefined) => {
    const handle = await openEmbeddedAtLatest(dataDir, { snapshotDirectory: snapshots });
    open.push(handle);
    return handle;
  };
  const closeAll = async () => {
    for (const handle of open.splice(0)) await handle.close();
  };
  const appliedMigrations = async (handle: DatabaseHandle) =>
    (
      await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db)
    ).rows.map((row) => row.name);
  const organizationCount = async (handle: DatabaseHandle) =>
    (
      await handle.db
        .selectFrom('organizations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  const snapshotFile = () => path.join(snapshots, `pglite-${snapshotKey()}.tar`);

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'embedded-snapshot-'));
    snapshots = path.join(root, 'snapshots');
  });

  afterAll(async () => {
    await closeAll();
    await rm(root, { recursive: true, force: true });
  });

  it('leaves a snapshot of a migrated database behind, and starts the next new database from it', async () => {
    const first = await openAt(undefined);
    expect(await appliedMigrations(first)).toEqual(Object.keys(migrations).sort());
    expect((await stat(snapshotFile())).mode & 0o777).toBe(0o600);
    expect((await stat(snapshots)).mode & 0o777).toBe(0o700);
    await first.db
      .insertInto('organizations')
      .values({ id: 'org_first', slug: 'first', name: 'First' })
      .execute();

    const before = (await stat(snapshotFile())).mtimeMs;
    const second = await openAt(undefined);
    // Taken right after the migrations: nothing the first database did since is in it.
    expect(await appliedMigrations(second)).toEqual(Object.keys(migrations).sort());
    expect(await organizationCount(second)).toBe(0);
    expect((await stat(snapshotFile())).mtimeMs).toBe(before);
    expect((await readdir(snapshots)).filter((entry) => entry.endsWith('.partial'))).toEqual([]);
    await closeAll();
  });

  it('starts a missing or empty data directory from the snapshot, and reopens it with its data', async () => {
    const dataDir = path.join(root, 'data');
    const created = await openAt(dataDir);
    await created.db
      .insertInto('organizations')
      .values({ id: 'org_kept', slug: 'kept', name: 'Kept' })
      .execute();
    await closeAll();

    const reopened = await openAt(dataDir);
    expect(await organizationCount(reopened)).toBe(1);
    expect(await appliedMigrations(reopened)).toEqual(Object.keys(migrations).sort());
    await closeAll();
  });

  it('deletes a snapshot that does not load and makes the database the slow way', async () => {
    await writeFile(snapshotFile(), 'not a tar archive');
    const dataDir = path.join(root, 'data-after-corruption');
    const handle = await openAt(dataDir);
    expect(await appliedMigrations(handle)).toEqual(Object.keys(migrations).sort());
    await handle.db.insertInto('organizations').values({ id: 'org_x', slug: 'x', name: 'X' }).execute();
    // The bad file was replaced by a good snapshot of the freshly made database.
    expect((await stat(snapshotFile())).size).toBeGreaterThan(1_000_000);
    await closeAll();
    expect(await organizationCount(await openAt(dataDir))).toBe(1);
    await closeAll();
  });

  it('names snapshots by what decides their content', () => {
    expect(snapshotKey()).toMatch(/^[0-9a-f]{32}$/);
    const inputs = { pgliteVersion: '0.5.16', extensions: ['citext', 'pg_trgm'], migrations };
    const base = snapshotKeyOf(inputs);
    expect(snapshotKeyOf({ ...inputs, extensions: ['pg_trgm', 'citext'] })).toBe(base);
    const [firstName, first] = Object.entries(migrations)[0]!;
    const edited = { ...migrations, [firstName]: { ...first, up: async () => {} } };
    for (const changed of [
      { ...inputs, pgliteVersion: '0.5.17' },
      { ...inputs, extensions: ['citext'] },
      { ...inputs, migrations: edited },
      { ...inputs, migrations: { ...migrations, '2099_01_01_0001_next': first } },
    ])
      expect(snapshotKeyOf(changed)).not.toBe(base);
  });
});

/** One ustar entry: a 512-byte header with its checksum, then the content padded to 512 bytes. */
function tarEntry(name: string, content: string | undefined): Buffer {
  const header = Buffer.alloc(512);
  const body = Buffer.from(content ?? '');
  header.write(name, 0, 100, 'latin1');
  header.write(content === undefined ? '0000755\0' : '0000644\0', 100, 'latin1');
  header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  header.write(content === undefined ? '5' : '0', 156, 'latin1');
  header.write('ustar\x0000', 257, 'latin1');
  header.fill(0x20, 148, 156);
  const checksum = header.reduce((sum, byte) => sum + byte, 0);
  header.write(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  const padded = Buffer.alloc(Math.ceil(body.length / 512) * 512);
  body.copy(padded);
  return Buffer.concat([header, padded]);
}

const tarOf = (...entries: Buffer[]) => Buffer.concat([...entries, Buffer.alloc(1024)]);

describe('extractSnapshot', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'extract-snapshot-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes the files and directories of the archive, private to the owner', async () => {
    const archive = path.join(root, 'good.tar');
    const large = 'x'.repeat(3 * 1024 * 1024 + 7);
    await writeFile(
      archive,
      tarOf(tarEntry('/PG_VERSION', '18\n'), tarEntry('/base', undefined), tarEntry('/base/1/112', large)),
    );
    const target = path.join(root, 'good');
    await extractSnapshot(archive, target);
    expect(await readFile(path.join(target, 'PG_VERSION'), 'utf8')).toBe('18\n');
    expect(await readFile(path.join(target, 'base/1/112'), 'utf8')).toBe(large);
    expect((await stat(path.join(target, 'base/1/112'))).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(target, 'base'))).mode & 0o777).toBe(0o700);
  });

  it('refuses an entry outside the data directory and a header whose checksum does not match', async () => {
    const escaping = path.join(root, 'escaping.tar');
    await writeFile(escaping, tarOf(tarEntry('../escaped', 'x')));
    await expect(extractSnapshot(escaping, path.join(root, 'escaping'))).rejects.toThrow(/outside/);
    await expect(stat(path.join(root, 'escaped'))).rejects.toThrow(/ENOENT/);

    const corrupt = tarEntry('/PG_VERSION', '18\n');
    corrupt[0] = 'Q'.charCodeAt(0);
    const corrupted = path.join(root, 'corrupt.tar');
    await writeFile(corrupted, tarOf(corrupt));
    await expect(extractSnapshot(corrupted, path.join(root, 'corrupt'))).rejects.toThrow(/not a tar/);
  });
});
