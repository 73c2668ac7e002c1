import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './connection-errors.ts';
import { openEmbeddedAtLatest } from './embedded-snapshot.ts';
import type { DatabaseHandle } from './open-database.ts';
import { openEmbedded } from './open-database.ts';

/**
 * The embedded database's data directory refusing a write: a full disk or a
 * read-only one. The statement fails with an error the service answers with
 * 503, reads go on where the engine can, and the directory stays one the next
 * start opens with every committed row.
 */
describe('the embedded database when its data directory refuses writes', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-write-errors-'));
  });
  afterAll(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  const organization = (id: string, name = 'Org') => ({ id, slug: id.replace('_', '-'), name });
  const count = async (handle: DatabaseHandle) =>
    (await sql<{ count: number }>`select count(*)::int as count from organizations`.execute(handle.db))
      .rows[0]?.count;

  it('on a full disk (a small tmpfs): the write answers unavailable, reads go on, and writes resume once there is room', async (context) => {
    const mountPoint = path.join(root, 'tmpfs');
    fs.mkdirSync(mountPoint);
    try {
      // Needs root and a kernel that lets this process mount; elsewhere the injected case below covers the path.
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=80m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    } catch {
      context.skip('cannot mount a tmpfs here (needs root)');
    }
    let handle: DatabaseHandle | undefined;
    try {
      handle = await openEmbeddedAtLatest(path.join(mountPoint, 'data'));
      await handle.db.insertInto('organizations').values(organization('org_before')).execute();
      try {
        execFileSync('dd', ['if=/dev/zero', `of=${path.join(mountPoint, 'filler')}`, 'bs=1M', 'count=200'], {
          stdio: 'ignore',
        });
      } catch {
        // dd stops at the full disk, which is the point.
      }
      let refused: unknown;
      let written = 0;
      for (let index = 0; index < 5_000 && refused === undefined; index++) {
        try {
          await handle.db
            .insertInto('organizations')
            .values(organization(`org_x${index}`, 'x'.repeat(2_000)))
            .execute();
          written++;
        } catch (error) {
          refused = error;
        }
      }
      expect(refused).toMatchObject({ code: '53100' });
      expect(isDatabaseUnavailable(refused)).toBe(true);
      // Reads still answer, and see every write that was acknowledged.
      expect(await count(handle)).toBe(1 + written);

      fs.rmSync(path.join(mountPoint, 'filler'));
      await handle.db.insertInto('organizations').values(organization('org_after')).execute();
      expect(await count(handle)).toBe(2 + written);
    } finally {
      await handle?.close();
      execFileSync('umount', [mountPoint], { stdio: 'ignore' });
    }
  }, 120_000);

  it('when its log cannot be written (ENOSPC injected): the engine stops, every later statement fails at once as unavailable, and a restart finds every committed row', async () => {
    const dataDir = path.join(root, 'injected');
    const { handle } = await openEmbedded(dataDir);
    await sql`create table notes (id int primary key)`.execute(handle.db);
    await sql`insert into notes values (1), (2)`.execute(handle.db);

    // PGlite writes its files through node:fs; from here every write fails as on a full disk.
    const writeSync = fs.writeSync;
    fs.writeSync = (() => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
        errno: -28,
      });
    }) as typeof fs.writeSync;
    let refused: unknown;
    try {
      await sql`insert into notes values (3)`.execute(handle.db).catch((error: unknown) => {
        refused = error;
      });
    } finally {
      fs.writeSync = writeSync;
    }
    expect(refused).toMatchObject({ code: '53100', severity: 'PANIC' });
    expect(isDatabaseUnavailable(refused)).toBe(true);

    // PostgreSQL stops on a failed log write; the embedded engine would never answer again.
    const timeout = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 5_000).unref());
    const next = await Promise.race([
      sql`select count(*) from notes`.execute(handle.db).then(
        () => 'answered',
        (error: unknown) => error,
      ),
      timeout,
    ]);
    expect(next).toMatchObject({ code: '57P02' });
    expect(isDatabaseUnavailable(next)).toBe(true);
    await expect(handle.ping()).rejects.toSatisfy(isDatabaseUnavailable);
    await handle.close();

    // What a crash left on disk: the next start recovers it, every committed row there.
    const copy = path.join(root, 'restarted');
    fs.cpSync(dataDir, copy, { recursive: true });
    const { handle: restarted } = await openEmbedded(copy);
    try {
      const { rows } = await sql<{ id: number }>`select id from notes order by id`.execute(restarted.db);
      expect(rows).toEqual([{ id: 1 }, { id: 2 }]);
      await sql`insert into notes values (3)`.execute(restarted.db);
    } finally {
      await restarted.close();
    }
  }, 120_000);
});
