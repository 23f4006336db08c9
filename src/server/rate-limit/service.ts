/**
 * A rate limiter whose counters live in the database, so a limit holds across every process and node
 * (DESIGN.md: nothing another node would need is kept in memory).
 *
 * Algorithm: sliding-window counter. Each (bucket, key) row keeps the number of allowed calls in the
 * current fixed window and in the previous one; the calls "in the last windowSeconds" are estimated as
 *   previous × (share of the previous window still inside the sliding window) + current.
 * Unlike a plain fixed window this does not allow 2 × limit calls across a window boundary, and unlike a
 * log of timestamps it is one small row per client.
 *
 * Each `consume` is ONE statement — INSERT … ON CONFLICT DO UPDATE … RETURNING — that reads the counters,
 * decides and increments under the row lock the upsert takes, so concurrent calls (any number of processes
 * on PostgreSQL; PGlite runs statements one at a time) never let more than `limit` calls through. Refused
 * calls are not counted: a client over the limit gets in again as soon as its window slides, however often
 * it knocks meanwhile.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import { rateLimits } from './tables.ts';

export type ConsumeInput = {
  /** What is limited, e.g. 'contact:ip'. */
  bucket: string;
  /** Who is limited, e.g. an IP address from rateLimitKeyForIp(). */
  key: string;
  /** Calls allowed per window (0 refuses every call). */
  limit: number;
  windowSeconds: number;
  /** Pretend it is this time (tests); default the database clock, the same for every node. */
  at?: Date;
};

export type ConsumeResult = {
  allowed: boolean;
  limit: number;
  /** Calls still allowed right now (after this one). */
  remaining: number;
  /** 0 when allowed; otherwise whole seconds until a call would be allowed again (for Retry-After). */
  retryAfterSeconds: number;
};

export type RateLimiterOptions = {
  /** At most one clean-up of expired rows per this many milliseconds per process (default 60 s). */
  cleanupIntervalMs?: number;
  log?: (message: string) => void;
};

type Row = { allowed: boolean; count: number; prev_count: number; elapsed: string | number };

/** How long until a refused call would be allowed, from the counters the statement returned. */
export function secondsUntilAllowed(limit: number, windowSeconds: number, prev: number, current: number, elapsedSeconds: number): number {
  if (limit <= 0) return windowSeconds;
  let wait: number;
  if (current + 1 > limit) {
    // Not before the next window; there the current count becomes "previous" and fades out linearly.
    const fraction = Math.max(0, 1 - (limit - 1) / current);
    wait = windowSeconds - elapsedSeconds + fraction * windowSeconds;
  } else {
    // Within this window, once enough of the previous window has slid out.
    const fraction = prev > 0 ? 1 - (limit - current - 1) / prev : 0;
    wait = fraction * windowSeconds - elapsedSeconds;
  }
  return Math.max(1, Math.ceil(wait));
}

export class RateLimiter {
  private lastCleanup = 0;
  private readonly cleanupIntervalMs: number;
  private readonly log: (message: string) => void;

  constructor(
    private readonly db: Database,
    options: RateLimiterOptions = {},
  ) {
    this.cleanupIntervalMs = options.cleanupIntervalMs ?? 60_000;
    this.log = options.log ?? ((m) => console.warn(`[meshfront] ${m}`));
  }

  async consume(input: ConsumeInput): Promise<ConsumeResult> {
    const { bucket, key, limit, windowSeconds } = input;
    if (!bucket || typeof key !== 'string') throw new TypeError('rate limit: bucket and key are required');
    // Both numbers are spliced into the SQL text as literals (they appear many times); only checked integers get there.
    if (!Number.isInteger(limit) || limit < 0) throw new TypeError(`rate limit: limit must be a whole number ≥ 0 (got ${limit})`);
    if (!Number.isInteger(windowSeconds) || windowSeconds < 1) throw new TypeError(`rate limit: windowSeconds must be a whole number ≥ 1 (got ${windowSeconds})`);
    const W = sql.raw(String(windowSeconds));
    const L = sql.raw(String(limit));
    const at = input.at ? sql`${input.at.toISOString()}::timestamptz` : sql`now()`;
    const same = sql`rate_limits.window_start = excluded.window_start`;
    const adjacent = sql`rate_limits.window_start = excluded.window_start - make_interval(secs => ${W})`;
    const prev = sql`(case when ${same} then rate_limits.prev_count when ${adjacent} then rate_limits.count else 0 end)`;
    const current = sql`(case when ${same} then rate_limits.count else 0 end)`;
    const elapsedShare = sql`(extract(epoch from (excluded.updated_at - excluded.window_start))::float8 / ${W})`;
    const ok = sql`(${prev} * (1 - ${elapsedShare}) + ${current} + 1 <= ${L})`;
    const result = await this.db.execute(sql`
      with t as (select ${at} as at)
      insert into rate_limits (bucket, key, window_start, count, prev_count, allowed, updated_at, expires_at)
      select ${bucket}, ${key}, w.start, case when ${L} >= 1 then 1 else 0 end, 0, ${L} >= 1, t.at, w.start + make_interval(secs => 2 * ${W})
      from t, lateral (select to_timestamp(floor(extract(epoch from t.at) / ${W}) * ${W}) as start) w
      on conflict (bucket, key) do update set
        prev_count = ${prev},
        count = ${current} + case when ${ok} then 1 else 0 end,
        allowed = ${ok},
        window_start = excluded.window_start,
        updated_at = excluded.updated_at,
        expires_at = excluded.expires_at
      returning allowed, count, prev_count, extract(epoch from (updated_at - window_start)) as elapsed`);
    const row = ((result as unknown as { rows?: Row[] }).rows ?? (result as unknown as Row[]))[0]!;
    const elapsed = Number(row.elapsed);
    const estimate = row.prev_count * (1 - elapsed / windowSeconds) + row.count;
    await this.maybeCleanup();
    return {
      allowed: row.allowed,
      limit,
      remaining: Math.max(0, Math.floor(limit - estimate)),
      retryAfterSeconds: row.allowed ? 0 : secondsUntilAllowed(limit, windowSeconds, row.prev_count, row.count, elapsed),
    };
  }

  /** Forget a key's history (e.g. after a successful login, a failed-login counter starts over). */
  async reset(bucket: string, key: string): Promise<void> {
    await this.db.execute(sql`delete from ${rateLimits} where bucket = ${bucket} and key = ${key}`);
  }

  /** Delete rows whose windows are both over; returns how many. Bounded so it never holds locks for long. */
  async purgeExpired(at?: Date): Promise<number> {
    const now = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
    const result = await this.db.execute(sql`
      delete from rate_limits where (bucket, key) in (
        select bucket, key from rate_limits where expires_at < ${now} limit 1000
      ) returning 1`);
    return ((result as unknown as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])).length;
  }

  private async maybeCleanup(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCleanup < this.cleanupIntervalMs) return;
    this.lastCleanup = now;
    try {
      await this.purgeExpired();
    } catch (err) {
      // A failed clean-up only leaves stale rows behind; the limit itself already answered.
      this.log(`rate-limit clean-up failed: ${(err as Error).message}`);
    }
  }
}
