/**
 * The in-process copy of the `sessions` table for a single-process database (PGlite): there every write
 * goes through this process's SessionService, so the copy can be authoritative and a session read costs
 * no statement. Rules that keep it equal to the database:
 * - a write changes the copy only after it is durable (after the statement, or after the transaction's
 *   commit: a rollback never leaves the copy ahead of the table);
 * - a read from the database fills the copy only when no write was applied while it ran (a slower read
 *   must not put back what a write just replaced);
 * - entries keep the row's expiry; an expired entry reads as "no session", as the table's query does.
 * Values are kept as JSON text: each reader gets its own object (callers change what they load), and the
 * text length bounds the memory. Least recently used entries go first beyond the entry or byte cap;
 * a dropped entry is simply read from the database again.
 */

type Entry = { json: string | null; expiresAt: number; bytes: number };

/** Per-entry overhead besides the JSON text (key, object, map slot), for the byte budget. */
const ENTRY_OVERHEAD = 64;

export type SessionCacheLimits = { maxEntries: number; maxBytes: number };

export const DEFAULT_SESSION_CACHE_LIMITS: SessionCacheLimits = { maxEntries: 10_000, maxBytes: 64 * 1024 * 1024 };

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Bumped by every applied write; a database read fills the copy only if it did not change meanwhile. */
  private writes = 0;

  constructor(readonly limits: SessionCacheLimits = DEFAULT_SESSION_CACHE_LIMITS) {
    if (!(limits.maxEntries >= 1) || !(limits.maxBytes >= 1)) throw new Error('Session cache limits must be positive.');
  }

  get size(): number {
    return this.entries.size;
  }

  get byteSize(): number {
    return this.bytes;
  }

  /** The counter value to pass to `fill` for a database read starting now. */
  get writeCount(): number {
    return this.writes;
  }

  /**
   * The session's data (a fresh object), {} for no or an expired session, or undefined when the copy does
   * not know (not cached): then the database must be asked.
   */
  get(customerId: string, now = Date.now()): Record<string, unknown> | undefined {
    const entry = this.entries.get(customerId);
    if (!entry) return undefined;
    // Most recently used last: re-insert.
    this.entries.delete(customerId);
    this.entries.set(customerId, entry);
    if (entry.json === null || entry.expiresAt <= now) return {};
    return JSON.parse(entry.json) as Record<string, unknown>;
  }

  /** What a database read found (null: no live row), unless a write was applied since `writesAtStart`. */
  fill(customerId: string, data: Record<string, unknown> | null, expiresAt: Date | null, writesAtStart: number): void {
    if (this.writes !== writesAtStart) return;
    this.store(customerId, data, data ? expiresAt!.getTime() : Number.POSITIVE_INFINITY);
  }

  /** A durable write: the row now holds `json` (the data as JSON text) until `expiresAt`; null: the row is gone. */
  written(customerId: string, json: string | null, expiresAt: Date | null): void {
    this.writes++;
    this.storeJson(customerId, json, json === null ? Number.POSITIVE_INFINITY : expiresAt!.getTime());
  }

  /** Forget one session (its next read goes to the database). */
  forget(customerId: string): void {
    this.writes++;
    this.drop(customerId);
  }

  /** Rows deleted in bulk (expired): forget everything that has expired by `now`. */
  forgetExpired(now = Date.now()): void {
    this.writes++;
    for (const [id, e] of this.entries) if (e.json !== null && e.expiresAt <= now) this.drop(id);
  }

  private store(customerId: string, data: Record<string, unknown> | null, expiresAt: number): void {
    this.storeJson(customerId, data === null ? null : JSON.stringify(data), expiresAt);
  }

  private storeJson(customerId: string, json: string | null, expiresAt: number): void {
    this.drop(customerId);
    const bytes = ENTRY_OVERHEAD + customerId.length + (json?.length ?? 0);
    // A session larger than the whole budget is not kept (it is read from the database each time).
    if (bytes > this.limits.maxBytes) return;
    this.entries.set(customerId, { json, expiresAt, bytes });
    this.bytes += bytes;
    for (const [id] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.drop(id);
    }
  }

  private drop(customerId: string): void {
    const old = this.entries.get(customerId);
    if (!old) return;
    this.entries.delete(customerId);
    this.bytes -= old.bytes;
  }
}
