/**
 * One process at a time on the embedded database. PGlite lets any number of processes open one data
 * directory, and each then overwrites what the others wrote: a CLI command run beside the shop lost the
 * orders the shop took meanwhile. So whoever opens the directory first holds an exclusive lock on
 * `<database dir>.lock` until it closes the database, and every other opener is refused at once with the
 * process that holds it.
 *
 * The lock is the operating system's (an open-file-description record lock through fs-native-extensions:
 * fcntl F_OFD_SETLK on Linux, the platform's equivalent elsewhere), not a file that merely exists: the
 * kernel lets go of it when the holder exits in any way, SIGKILL and power loss included, so a crash never
 * leaves a stale lock behind and nothing has to guess from a pid whether the holder still runs (a pid can
 * belong to another program by then). The file's text — pid, what the process is, since when — only
 * names the holder in the refusal; it is written after the lock is taken.
 */
import fs from 'node:fs';
import path from 'node:path';
import { tryLock } from 'fs-native-extensions';

export type LockHolder = { pid: number; what: string; since: string };

/** The embedded database is open in another process (or elsewhere in this one). */
export class DatabaseLockedError extends Error {
  override name = 'DatabaseLockedError';
  readonly dir: string;
  /** Who holds it, when the lock file says so and that process is still alive. */
  readonly holder: LockHolder | null;
  constructor(dir: string, holder: LockHolder | null) {
    const who = holder
      ? `process ${holder.pid} (${holder.what}${holder.pid === process.pid ? ', this process' : ''}, since ${holder.since})`
      : 'another process (it is just starting)';
    super(`The database in ${dir} is in use by ${who}. Only one process can open the embedded database at a time.`);
    this.dir = dir;
    this.holder = holder;
  }
}

export type DataDirLock = {
  /** The database directory the lock is for. */
  dir: string;
  /** Lets go of the lock (idempotent). */
  release(): void;
};

export const lockFileOf = (dir: string) => `${path.resolve(dir)}.lock`;

/** What this process is, for the lock file: the npm script that started it, else its script's name. */
export function describeThisProcess(): string {
  const script = process.env.npm_lifecycle_event;
  if (script === 'start') return 'npm start';
  // npx sets it too, to "npx": that names no script.
  if (script && script !== 'npx') return `npm run ${script}`;
  return `node ${path.basename(process.argv[1] ?? 'unknown')}`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder named in the lock file of `dir`, if that process is alive (the file may be a crashed holder's). */
export function readLockHolder(dir: string): LockHolder | null {
  let text: string;
  try {
    text = fs.readFileSync(lockFileOf(dir), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (!Number.isSafeInteger(parsed.pid) || (parsed.pid as number) <= 0) return null;
    if (typeof parsed.what !== 'string' || typeof parsed.since !== 'string') return null;
    const holder = { pid: parsed.pid as number, what: parsed.what.slice(0, 200), since: parsed.since.slice(0, 40) };
    return alive(holder.pid) ? holder : null;
  } catch {
    // Empty or half-written: the holder has just taken the lock.
    return null;
  }
}

/**
 * Takes the lock on the database directory `dir` for this process, or throws DatabaseLockedError at
 * once (it never waits). `what` names this process to the ones it refuses.
 */
export function lockDatabaseDir(dir: string, what: string = describeThisProcess()): DataDirLock {
  const file = lockFileOf(dir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Opened without truncating: the holder's text must stay readable for the refusal.
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
  let locked = false;
  try {
    locked = tryLock(fd);
  } finally {
    if (!locked) fs.closeSync(fd);
  }
  if (!locked) throw new DatabaseLockedError(path.resolve(dir), readLockHolder(dir));
  const holder: LockHolder = { pid: process.pid, what, since: new Date().toISOString() };
  try {
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, `${JSON.stringify(holder)}\n`, 0);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  let released = false;
  return {
    dir: path.resolve(dir),
    release() {
      if (released) return;
      released = true;
      // Emptied, never deleted: another process may have opened this file to try the lock; had it been
      // deleted, a third could create a new file under the same name and lock that one too. Closing the
      // descriptor unlocks.
      try {
        fs.ftruncateSync(fd, 0);
      } finally {
        fs.closeSync(fd);
      }
    },
  };
}
