/**
 * Backups of the embedded database: a gzipped tarball of its data directory (DatabaseHandle.dumpDataDir,
 * taken from the open database, so the shop keeps running), and putting one back in place of the data
 * directory — only by the process that holds the database's lock, so never under a running shop.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from './connection.ts';
import type { DataDirLock } from './data-dir-lock.ts';
import { migrate } from './migrate.ts';

/** Backups are bigger than any CSV; this only refuses what cannot be one (a wrong path, a disk image). */
const MAX_BACKUP_BYTES = 16 * 1024 * 1024 * 1024;

export class BackupError extends Error {
  override name = 'BackupError';
}

/** Writes the database's tarball to `file` (mode 0600: it holds customers' data and password hashes). */
export async function writeBackup(handle: DatabaseHandle, file: string): Promise<{ bytes: number }> {
  if (!handle.dumpDataDir)
    throw new BackupError('this database is not the embedded one; back it up with its own tools');
  const tarball = new Uint8Array(await (await handle.dumpDataDir()).arrayBuffer());
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written beside the target and renamed: an interrupted backup never looks like a complete one.
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, tarball, { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return { bytes: tarball.byteLength };
}

function readTarball(file: string): Uint8Array<ArrayBuffer> {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new BackupError(`cannot read ${file}: no such file`);
  }
  if (!stat.isFile()) throw new BackupError(`${file} is not a file`);
  if (stat.size < 512 || stat.size > MAX_BACKUP_BYTES) throw new BackupError(`${file} is not a backup of the shop`);
  const bytes = new Uint8Array(fs.readFileSync(file)) as Uint8Array<ArrayBuffer>;
  const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const tar = new TextDecoder().decode(bytes.subarray(257, 262)) === 'ustar';
  if (!gzip && !tar) throw new BackupError(`${file} is not a backup of the shop (not a tarball)`);
  return bytes;
}

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, 'Z');

/**
 * Replaces the database in `dir` (held by `lock`) with the backup in `file`. The backup is unpacked and
 * opened beside it first; only then is the current database moved aside (to the returned path) and the
 * backup put in its place, which must open and migrate, or the old one goes back.
 */
export async function restoreBackup(dir: string, file: string, lock: DataDirLock): Promise<{ aside: string | null }> {
  if (path.resolve(lock.dir) !== path.resolve(dir)) throw new Error(`restore: the lock held is for ${lock.dir}`);
  const tarball = readTarball(file);
  const when = stamp();
  const staging = `${dir}.restoring-${when}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const copy = await PGlite.create(staging, { loadDataDir: new Blob([tarball]) });
    try {
      await copy.query('select count(*) from schema_migrations');
    } finally {
      await copy.close();
    }
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new BackupError(`${file} is not a backup of the shop (${(err as Error).message})`);
  }
  const aside = fs.existsSync(dir) ? `${dir}.before-restore-${when}` : null;
  if (aside) fs.renameSync(dir, aside);
  fs.renameSync(staging, dir);
  try {
    const handle = await openDatabase({ kind: 'pglite', dir }, { lock });
    try {
      await migrate(handle);
    } finally {
      await handle.close();
    }
  } catch (err) {
    fs.renameSync(dir, `${dir}.failed-restore-${when}`);
    if (aside) fs.renameSync(aside, dir);
    throw new BackupError(
      `the restored database did not open (${(err as Error).message}); the previous one is back in place`,
    );
  }
  return { aside };
}
