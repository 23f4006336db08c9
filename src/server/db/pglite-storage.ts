/**
 * The embedded database (PGlite) when its disk is full or read-only.
 *
 * PGlite is PostgreSQL compiled to WebAssembly, running in this thread; it writes its files with Node's
 * synchronous `fs` calls. What it does when a write fails was found out with a real full tmpfs and with
 * the same errors injected (tests/fixtures/storage-faults.ts), and it is not what a PostgreSQL server does:
 *
 * - a table or index that cannot grow: a clean error (53100 "could not extend file"); the instance is fine;
 * - a new WAL segment that cannot be made: that statement fails, and from then on every statement fails
 *   ("cannot drop active portal"), also after space returns;
 * - a failed CHECKPOINT (run by hand, by a backup, at close, or by PostgreSQL after enough WAL): the next
 *   statements answer with empty results — a SELECT count(*) with no row — and then never answer;
 * - a WAL write that fails at COMMIT (read-only disk): PostgreSQL PANICs, and the next statement spins in
 *   WebAssembly forever: the event loop stops and the whole process with it — no page, no /health.
 *
 * So the instance must never be asked to write when writes may fail, and an instance that met a storage
 * error must never be asked anything again. Hence, in front of PGlite:
 *
 * 1. `StorageWatch` looks at the directory every MESHFRONT_DB_STORAGE_CHECK_MS (a timer): free space below
 *    MESHFRONT_DB_MIN_FREE_MB, or a probe file that cannot be written (read-only, quota, I/O error), makes
 *    the storage "read-only". Then statements that change data are refused before PGlite sees them
 *    (DatabaseReadOnlyError: the shopper is told the shop cannot save changes right now) and reads go on
 *    (pages, catalog, order lookups). A transaction whose write is refused rolls back: nothing half-written.
 * 2. A statement that fails with a storage error anyway (the disk filled between two looks) makes the
 *    storage read-only at once. A plain error seen to leave PGlite working (a table that cannot grow, a file
 *    that cannot be opened for writing) stops there; any other retires the instance at once: it gets no further statement — not even the ROLLBACK PGlite would send — and the
 *    database reopens from its files (PostgreSQL's crash recovery: every committed transaction, nothing
 *    else) as soon as the storage is writable again. Meanwhile statements fail fast with
 *    DatabaseUnavailableError. Closing skips the shutdown checkpoint when the storage is read-only.
 *
 * PGlite itself runs one statement at a time, and a transaction from BEGIN to its end, so calls are
 * passed straight on. (A queue of its own in front of PGlite cost every statement a turn through it, and
 * deadlocked a query arriving between two statements of a transaction: the query held the queue while
 * waiting for PGlite's transaction lock, the transaction's next statement waited for the queue.) What
 * keeps statements that were already waiting inside PGlite off a retired instance is a check where PGlite
 * hands each protocol message to PostgreSQL (`openInstance`). A retired instance is left to the garbage
 * collector (its file descriptors stay open until then).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { errorSummary } from '../error-summary.ts';
import { DatabaseReadOnlyError, DatabaseUnavailableError } from './unavailable.ts';

type StorageState = 'ok' | 'read-only';

const PROBE_FILE = '.meshfront-storage-probe';

/**
 * Free space and writability of the database directory, looked at every `checkMs` by a timer (and at once
 * when asked for a `fresh` state), so a statement only reads the last finding: the look (statfs, and a
 * probe file written and removed) costs no statement any time.
 */
export class StorageWatch {
  private current: StorageState = 'ok';
  private reason = '';
  private timer: NodeJS.Timeout | null = null;
  private failedAt = 0;

  constructor(
    private readonly dir: string,
    private readonly options: { minFreeBytes: number; checkMs: number },
    private readonly log: (message: string) => void,
  ) {}

  /** The last finding; `fresh` looks again first. */
  state(options: { fresh?: boolean } = {}): StorageState {
    if (options.fresh) this.check();
    return this.current;
  }

  /** Look every checkMs from now on (the timer does not keep the process alive). */
  watch(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      // A storage error stays in force for a whole interval, as a look that found it would.
      if (Date.now() - this.failedAt >= this.options.checkMs) this.check();
    }, this.options.checkMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Why the storage is read-only ('' when it is not). */
  get why(): string {
    return this.reason;
  }

  /** A storage error happened: read-only until a look finds the directory writable again. */
  failed(reason: string): void {
    this.set('read-only', reason);
    this.failedAt = Date.now();
  }

  private check(): void {
    let reason = '';
    try {
      const stats = fs.statfsSync(this.dir);
      const free = Number(stats.bavail) * Number(stats.bsize);
      if (free < this.options.minFreeBytes)
        reason = `${Math.floor(free / 1048576)} MB free, below MESHFRONT_DB_MIN_FREE_MB (${Math.floor(this.options.minFreeBytes / 1048576)} MB)`;
      else {
        // Free space says nothing about a filesystem mounted read-only, a quota or a failing disk.
        const probe = path.join(this.dir, PROBE_FILE);
        const fd = fs.openSync(probe, 'w');
        try {
          fs.writeSync(fd, 'ok');
        } finally {
          fs.closeSync(fd);
        }
        fs.unlinkSync(probe);
      }
    } catch (err) {
      reason = `the database directory cannot be written (${(err as NodeJS.ErrnoException).code ?? errorSummary(err)})`;
    }
    this.set(reason ? 'read-only' : 'ok', reason);
  }

  private set(state: StorageState, reason: string): void {
    if (state !== this.current) {
      this.log(
        state === 'read-only'
          ? `the embedded database's storage is full or read-only (${reason}): changes are refused, reads go on`
          : "the embedded database's storage is writable again: changes are taken again",
      );
    }
    this.current = state;
    this.reason = reason;
  }
}

/** Statements that change nothing (reads, transaction control, session settings). */
const READ_ONLY_STATEMENT =
  /^(select|show|explain|values|table|begin|start|commit|end|rollback|savepoint|release|set|reset|fetch|declare|close|deallocate|discard|listen|unlisten)\b/i;

/** Whether SQL text (one or more statements) may change data. */
function isWriteStatement(text: string): boolean {
  return text
    .replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ')
    .split(';')
    .map((statement) => statement.trim().replace(/^\(+\s*/, ''))
    .filter(Boolean)
    .some((statement) => {
      if (/^with\b/i.test(statement)) return /\b(insert|update|delete|merge)\b/i.test(statement);
      return !READ_ONLY_STATEMENT.test(statement);
    });
}

/** An error that says the files under the database could not be written (or PGlite itself broke). */
function isStorageFailure(error: unknown): boolean {
  if (error instanceof WebAssembly.RuntimeError) return true;
  // This module's own refusals are no failure of the instance.
  if (error instanceof DatabaseReadOnlyError || error instanceof DatabaseUnavailableError) return false;
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === '53100' || e.code === '58030') return true;
  return /No space left on device|Read-only file system|Input\/output error|Disk quota exceeded|Permission denied/i.test(
    String(e.message ?? ''),
  );
}

type QueryArgs = [text: string, params?: unknown[], options?: Record<string, unknown>];
type Transaction = {
  query: (...args: QueryArgs) => Promise<unknown>;
  exec: (text: string, options?: Record<string, unknown>) => Promise<unknown>;
  sql: (...args: unknown[]) => Promise<unknown>;
  rollback: () => Promise<void>;
  readonly closed: boolean;
};

/**
 * Storage errors after which the instance was seen to work on (a table that cannot grow, a file that
 * cannot be opened for writing): PostgreSQL raised a plain ERROR before changing anything. Every other
 * storage error retires the instance.
 */
function isCleanStorageError(error: unknown): boolean {
  return /^could not (open|extend) file "base\//.test(String((error as { message?: unknown } | null)?.message ?? ''));
}

/**
 * PGlite behind the storage rules above, with the calls the engine makes of it (query, exec,
 * transaction, close, dumpDataDir). `open` makes a new instance on the same directory and options.
 */
export async function openGuardedPGlite(
  open: () => Promise<PGlite>,
  watch: StorageWatch,
  options: { retryMs: number; log: (message: string) => void },
): Promise<{ client: PGlite; storageState: () => StorageState }> {
  // Starting on such a disk would run PostgreSQL's recovery into the same failures.
  if (watch.state({ fresh: true }) !== 'ok')
    throw new Error(
      `The embedded database cannot start: its storage is full or read-only (${watch.why}). Free space or fix the disk, then start again.`,
    );
  let instance: PGlite | null = null;
  let reopening = false;
  let closed = false;
  const { log } = options;
  /** Instances that met a storage error: they get no further statement. */
  const retired = new WeakSet<PGlite>();

  /**
   * A new instance whose every protocol message is refused once it is retired. The check sits where
   * PGlite hands the message to PostgreSQL, inside PGlite's own one-at-a-time locks: a statement that was
   * already waiting for its turn when the instance was retired — or the ROLLBACK PGlite sends after a
   * failed statement in a transaction — fails with DatabaseUnavailableError instead of reaching an
   * instance that may have PANICked (after a PANIC, the next statement would stop the process).
   */
  const openInstance = async (): Promise<PGlite> => {
    const pg = await open();
    const raw = pg as unknown as { execProtocolRawSync: (message: Uint8Array) => unknown };
    const send = raw.execProtocolRawSync.bind(pg);
    raw.execProtocolRawSync = (message) => {
      if (retired.has(pg))
        throw new DatabaseUnavailableError('The embedded database is reopening after a storage error.');
      return send(message);
    };
    return pg;
  };
  instance = await openInstance();
  watch.watch();

  const retire = (pg: PGlite, error: unknown): Error => {
    retired.add(pg);
    if (instance === pg) {
      instance = null;
      watch.failed(errorSummary(error));
      log(
        `the embedded database stopped on a storage error (${errorSummary(error)}); it reopens once the storage is writable`,
      );
      reopen();
    }
    return new DatabaseUnavailableError('The embedded database is reopening after a storage error.', { cause: error });
  };

  const reopen = () => {
    if (reopening) return;
    reopening = true;
    void (async () => {
      while (!closed) {
        await new Promise((resolve) => setTimeout(resolve, options.retryMs).unref());
        if (closed || watch.state() !== 'ok') continue;
        try {
          instance = await openInstance();
          log('the embedded database reopened: committed data recovered from its files');
          return;
        } catch (err) {
          watch.failed(errorSummary(err));
          log(`the embedded database could not reopen yet: ${errorSummary(err)}`);
        }
      }
    })().finally(() => {
      reopening = false;
    });
  };

  const live = (): PGlite => {
    if (closed) throw new Error('PGlite is closed');
    if (!instance) throw new DatabaseUnavailableError('The embedded database is reopening after a storage error.');
    return instance;
  };
  /** Changes are refused while the storage is read-only (the statement's text is read only then). */
  const refuseWrites = (text: string) => {
    if (watch.state() === 'read-only' && isWriteStatement(text))
      throw new DatabaseReadOnlyError("The embedded database's storage is full or read-only: changes are refused.");
  };
  /** What a storage error becomes: changes refused from now on, and the instance retired unless it is safe. */
  const storageError = (pg: PGlite, error: unknown): Error => {
    if (!isCleanStorageError(error)) return retire(pg, error);
    watch.failed(errorSummary(error));
    return new DatabaseReadOnlyError("The embedded database's storage is full or read-only: changes are refused.", {
      cause: error,
    });
  };
  /** Runs `call` on `pg`; a storage failure retires `pg` (see storageError). */
  const guarded = async <T>(pg: PGlite, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      throw isStorageFailure(err) ? storageError(pg, err) : err;
    }
  };

  /**
   * A transaction on `pg`. PGlite runs one statement at a time and holds a transaction's turn from BEGIN
   * to COMMIT or ROLLBACK, so nothing here queues statements again. A storage error inside it retires
   * `pg` unless it is a clean one; the ROLLBACK PGlite then sends is refused before it reaches the instance.
   */
  const runTransaction = async <T>(pg: PGlite, fn: (tx: Transaction) => Promise<T>): Promise<T> => {
    let storageFailure: Error | null = null;
    const inner = pg.transaction(async (tx) => {
      const statement = async <R>(text: string, call: () => Promise<R>): Promise<R> => {
        if (instance !== pg)
          throw new DatabaseUnavailableError('The embedded database is reopening after a storage error.');
        refuseWrites(text);
        try {
          return await call();
        } catch (err) {
          if (!isStorageFailure(err)) throw err;
          storageFailure = storageError(pg, err);
          throw storageFailure;
        }
      };
      const guardedTx: Transaction = {
        query: (text, params, opts) => statement(text, () => tx.query(text, params, opts)),
        exec: (text, opts) => statement(text, () => tx.exec(text, opts)),
        sql: (...args) => (tx.sql as (...a: unknown[]) => Promise<unknown>)(...args),
        rollback: () => tx.rollback(),
        get closed() {
          return tx.closed;
        },
      };
      return fn(guardedTx);
    });
    // COMMIT itself may meet the storage error (PGlite sends no ROLLBACK after a failed COMMIT). The
    // storage error wins over the refused ROLLBACK's error, so the caller learns why.
    try {
      return await guarded(pg, () => inner);
    } catch (err) {
      throw storageFailure ?? err;
    }
  };

  const client = {
    get closed() {
      return closed;
    },
    query: async (...[text, params, opts]: QueryArgs) => {
      const pg = live();
      refuseWrites(text);
      return guarded(pg, () => pg.query(text, params, opts));
    },
    exec: async (text: string, opts?: Record<string, unknown>) => {
      const pg = live();
      refuseWrites(text);
      return guarded(pg, () => pg.exec(text, opts));
    },
    transaction: async <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> => runTransaction(live(), fn),
    dumpDataDir: async (compression?: 'auto' | 'gzip' | 'none') => live().dumpDataDir(compression),
    close: async () => {
      if (closed) return;
      closed = true;
      watch.stop();
      const pg = instance;
      instance = null;
      // Closing writes a shutdown checkpoint; on a full or read-only disk that would never return. The
      // files hold every committed transaction: the next start recovers them.
      if (pg && watch.state({ fresh: true }) === 'ok') await pg.close();
      else if (pg) log('the embedded database was left without its closing checkpoint (storage full or read-only)');
    },
  };
  return {
    // The calls of PGlite the engine makes (drizzle: query and transaction), with the same signatures.
    client: client as unknown as PGlite,
    /** 'read-only' while changes are refused or the instance is reopening. */
    storageState: () => (instance ? watch.state() : 'read-only'),
  };
}
