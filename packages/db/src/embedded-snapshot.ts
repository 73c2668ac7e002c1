import { createHash, randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import type { Migration } from 'kysely';
import { migrateToLatest } from './migrate.ts';
import { migrations } from './migrations/index.ts';
import { type DatabaseHandle, EMBEDDED_EXTENSIONS, openEmbedded } from './open-database.ts';

/**
 * A new embedded database costs PGlite's initdb (PostgreSQL's bootstrap, run
 * in WebAssembly: about 2.6 s of one core on the reference machine) and then
 * every migration. Loading an archive of a freshly migrated database with
 * PGlite's `loadDataDir` costs about 0.35 s. So a new database (in memory, or
 * a data directory that is missing or empty) starts from such a snapshot when
 * there is one, and the first one made without a snapshot leaves one behind.
 *
 * Snapshots live in the user's own cache directory, never in the shared temp
 * directory: a snapshot is loaded as the database itself, so nobody else may
 * be able to write one. A snapshot's name is a hash of everything that decides
 * its content (the PGlite version, the extensions, each migration's name and
 * source), so a changed migration or an upgraded PGlite never loads an old
 * one. A snapshot that fails to load is deleted and the database is made the
 * slow way. Existing data directories are opened as before.
 */
export async function openEmbeddedAtLatest(
  dataDir: string | undefined,
  options: { snapshotDirectory?: string } = {},
): Promise<DatabaseHandle> {
  if (dataDir !== undefined && !(await isMissingOrEmpty(dataDir))) {
    const { handle } = await openEmbedded(dataDir);
    await migrateToLatest(handle.db);
    return handle;
  }
  const directory = options.snapshotDirectory ?? defaultSnapshotDirectory();
  const file = path.join(directory, `pglite-${snapshotKey()}.tar`);
  if (
    await stat(file).then(
      (found) => found.isFile(),
      () => false,
    )
  ) {
    try {
      // A data directory on disk gets the snapshot's files written into it a piece at a time;
      // PGlite's loadDataDir would hold the archive in memory, twice over, until a garbage
      // collection that an idle process may not run for a long time (docs/performance.md).
      if (dataDir !== undefined) await extractSnapshot(file, dataDir);
      // In memory, PGlite reads the archive once from a blob backed by the file.
      const { handle } = await openEmbedded(
        dataDir,
        dataDir === undefined ? await openAsBlob(file) : undefined,
      );
      await migrateToLatest(handle.db);
      return handle;
    } catch {
      await rm(file, { force: true });
      if (dataDir !== undefined) await emptyDirectory(dataDir);
    }
  }

  const { handle, pglite } = await openEmbedded(dataDir);
  await migrateToLatest(handle.db);
  await saveSnapshot(directory, file, await pglite.dumpDataDir('none')).catch(() => {
    // A cache: without it the next new database is only slower.
  });
  return handle;
}

function defaultSnapshotDirectory(): string {
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache');
  return path.join(cacheHome, 'commerce', 'pglite');
}

let key: string | undefined;

/** This process's snapshot key (see `snapshotKeyOf`). */
export function snapshotKey(): string {
  key ??= snapshotKeyOf({
    pgliteVersion: pgliteVersion(),
    extensions: Object.keys(EMBEDDED_EXTENSIONS),
    migrations,
  });
  return key;
}

/**
 * A hash of the PGlite version, the extensions and every migration's name
 * and source (each migration is self-contained: its `up` and `down` are its
 * whole source).
 */
export function snapshotKeyOf(inputs: {
  pgliteVersion: string;
  extensions: readonly string[];
  migrations: Record<string, Migration>;
}): string {
  const hash = createHash('sha256');
  hash.update(`pglite ${inputs.pgliteVersion}\n`);
  hash.update(`extensions ${[...inputs.extensions].sort().join(',')}\n`);
  for (const [name, migration] of Object.entries(inputs.migrations)) {
    hash.update(`migration ${name}\n${migration.up.toString()}\n${migration.down?.toString() ?? ''}\n`);
  }
  return hash.digest('hex').slice(0, 32);
}

/** PGlite's version, from the package.json above the module it resolves to. */
function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  let directory = path.dirname(require.resolve('@electric-sql/pglite'));
  for (;;) {
    try {
      const manifest = require(path.join(directory, 'package.json')) as { name?: string; version?: string };
      if (manifest.name === '@electric-sql/pglite' && manifest.version) return manifest.version;
    } catch {
      // No package.json at this level; keep climbing.
    }
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error('cannot find the version of @electric-sql/pglite');
    directory = parent;
  }
}

async function isMissingOrEmpty(directory: string): Promise<boolean> {
  try {
    return (await readdir(directory)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

async function emptyDirectory(directory: string): Promise<void> {
  for (const entry of await readdir(directory).catch(() => [])) {
    await rm(path.join(directory, entry), { recursive: true, force: true });
  }
}

const TAR_BLOCK = 512;

/**
 * Writes the files and directories of a snapshot (a plain ustar archive, as
 * PGlite's dumpDataDir makes it) into `directory`, reading 1 MiB at a time.
 * Anything else in the archive (links, entries outside `directory`, a bad
 * header checksum) fails the load, and the caller makes the database anew.
 */
export async function extractSnapshot(file: string, directory: string): Promise<void> {
  const root = path.resolve(directory);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const archive = await open(file, 'r');
  const header = Buffer.alloc(TAR_BLOCK);
  const chunk = Buffer.alloc(1 << 20);
  const field = (start: number, length: number) =>
    header.toString('latin1', start, start + length).replace(/\0.*$/s, '');
  try {
    let offset = 0;
    for (;;) {
      const { bytesRead } = await archive.read(header, 0, TAR_BLOCK, offset);
      if (bytesRead < TAR_BLOCK) throw new Error('snapshot: the archive ends early');
      offset += TAR_BLOCK;
      if (header.every((byte) => byte === 0)) return;
      let checksum = 0;
      for (let index = 0; index < TAR_BLOCK; index++) {
        checksum += index >= 148 && index < 156 ? 0x20 : header[index]!;
      }
      if (field(257, 5) !== 'ustar' || Number.parseInt(field(148, 8).trim(), 8) !== checksum) {
        throw new Error('snapshot: not a tar archive');
      }
      const prefix = field(345, 155);
      const name = `${prefix ? `${prefix}/` : ''}${field(0, 100)}`;
      const size = Number.parseInt(field(124, 12).trim() || '0', 8);
      const target = path.resolve(root, `.${path.sep}${name}`);
      if (target !== root && !target.startsWith(`${root}${path.sep}`)) {
        throw new Error('snapshot: an entry lies outside the data directory');
      }
      const type = String.fromCharCode(header[156]!);
      if (type === '5') {
        await mkdir(target, { recursive: true, mode: 0o700 });
      } else if (type === '0' || type === '\0') {
        await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        const output = await open(target, 'w', 0o600);
        try {
          for (let written = 0; written < size; ) {
            const length = Math.min(chunk.length, size - written);
            const read = await archive.read(chunk, 0, length, offset + written);
            if (read.bytesRead < length) throw new Error('snapshot: the archive ends early');
            await output.write(chunk, 0, length);
            written += length;
          }
        } finally {
          await output.close();
        }
      } else {
        throw new Error(`snapshot: unexpected entry type ${JSON.stringify(type)}`);
      }
      offset += Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;
    }
  } finally {
    await archive.close();
  }
}

const STALE_SNAPSHOT_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Writes the snapshot beside its final name and renames it into place, so a
 * concurrent reader sees the whole file or none; then removes snapshots of
 * other keys not written for a week (older migrations or PGlite versions).
 */
async function saveSnapshot(directory: string, file: string, archive: Blob): Promise<void> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
  try {
    await writeFile(partial, new Uint8Array(await archive.arrayBuffer()), { mode: 0o600 });
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
  const now = Date.now();
  for (const entry of await readdir(directory)) {
    const other = path.join(directory, entry);
    if (other === file || !entry.startsWith('pglite-')) continue;
    const { mtimeMs } = await stat(other).catch(() => ({ mtimeMs: now }));
    if (now - mtimeMs > STALE_SNAPSHOT_MS) await unlink(other).catch(() => {});
  }
}
