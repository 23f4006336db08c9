/**
 * A rate limiter whose counters live in the database, so a limit holds across every process and node
 * (nothing another engine process would need is kept in memory).
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
import type { Database, DbOrTx } from '../db/connection.ts';
import { selectRows } from '../db/raw-rows.ts';
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
type PeekRow = { estimate: string | number; since_last: string | number };

export type PeekResult = {
  /** Calls in the sliding window (an estimate: the previous window's share is fractional). */
  count: number;
  /** Seconds since the most recent counted call; null when the window holds none. */
  secondsSinceLast: number | null;
};

/** The "limit" of a counter that never refuses (the count column is a 32-bit integer). */
const UNLIMITED = 2_000_000_000;

/** How long until a refused call would be allowed, from the counters the statement returned. */
export function secondsUntilAllowed(
  limit: number,
  windowSeconds: number,
  prev: number,
  current: number,
  elapsedSeconds: number,
): number {
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

function checkInput({ bucket, key, limit, windowSeconds }: ConsumeInput): void {
  if (!bucket || typeof key !== 'string') throw new TypeError('rate limit: bucket and key are required');
  // Both numbers are spliced into the SQL text as literals (they appear many times); only checked integers get there.
  if (!Number.isInteger(limit) || limit < 0)
    throw new TypeError(`rate limit: limit must be a whole number ≥ 0 (got ${limit})`);
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1)
    throw new TypeError(`rate limit: windowSeconds must be a whole number ≥ 1 (got ${windowSeconds})`);
}

/** purgeExpired deletes at most this many rows per call, so it never holds locks for long. */
export const PURGE_BATCH = 1000;

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

  /**
   * Count one call if the limit allows it. `db` may be a transaction: the count then stands or falls with
   * it (e.g. an order limit counts only orders that were placed), and the row stays locked until it ends,
   * so concurrent calls for the same key wait for that outcome instead of all slipping through.
   */
  async consume(input: ConsumeInput, db: DbOrTx = this.db): Promise<ConsumeResult> {
    const { bucket, key, limit, windowSeconds } = input;
    checkInput(input);
    const W = sql.raw(String(windowSeconds));
    const L = sql.raw(String(limit));
    const at = input.at ? sql`${input.at.toISOString()}::timestamptz` : sql`now()`;
    const same = sql`rate_limits.window_start = excluded.window_start`;
    const adjacent = sql`rate_limits.window_start = excluded.window_start - make_interval(secs => ${W})`;
    const prev = sql`(case when ${same} then rate_limits.prev_count when ${adjacent} then rate_limits.count else 0 end)`;
    const current = sql`(case when ${same} then rate_limits.count else 0 end)`;
    const elapsedShare = sql`(extract(epoch from (excluded.updated_at - excluded.window_start))::float8 / ${W})`;
    const ok = sql`(${prev} * (1 - ${elapsedShare}) + ${current} + 1 <= ${L})`;
    const result = await selectRows<Row>(
      db,
      sql`
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
      returning allowed, count, prev_count, extract(epoch from (updated_at - window_start)) as elapsed`,
    );
    const row = result[0]!;
    const elapsed = Number(row.elapsed);
    const estimate = row.prev_count * (1 - elapsed / windowSeconds) + row.count;
    // Not inside the caller's transaction: the clean-up must not hold (or, on PGlite, wait for) its connection.
    if (db === this.db) await this.maybeCleanup();
    return {
      allowed: row.allowed,
      limit,
      remaining: Math.max(0, Math.floor(limit - estimate)),
      retryAfterSeconds: row.allowed
        ? 0
        : secondsUntilAllowed(limit, windowSeconds, row.prev_count, row.count, elapsed),
    };
  }

  /**
   * Counts one event with no limit: a counter that something else reads with `peek` (failed logins on an
   * account, which only slow down addresses that failed themselves and never lock anybody out).
   */
  async record(bucket: string, key: string, windowSeconds: number, at?: Date): Promise<void> {
    await this.consume({ bucket, key, limit: UNLIMITED, windowSeconds, at });
  }

  /**
   * How many calls the sliding window holds for a key right now (an estimate with a fraction, 0 for an
   * unknown key) and how many seconds ago the most recent one was counted (null when none is), without
   * counting anything. Only for decisions that may be a call late: the limits themselves are `consume`.
   */
  async peek(bucket: string, key: string, windowSeconds: number, at?: Date): Promise<PeekResult> {
    if (!Number.isInteger(windowSeconds) || windowSeconds < 1)
      throw new TypeError(`rate limit: windowSeconds must be a whole number ≥ 1 (got ${windowSeconds})`);
    const W = sql.raw(String(windowSeconds));
    const now = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
    const result = await selectRows<PeekRow>(
      this.db,
      sql`
      with t as (select ${now} as at),
      w as (select t.at, to_timestamp(floor(extract(epoch from t.at) / ${W}) * ${W}) as start from t)
      select
        case
          when r.window_start = w.start then r.prev_count * (1 - extract(epoch from (w.at - w.start))::float8 / ${W}) + r.count
          when r.window_start = w.start - make_interval(secs => ${W}) then r.count * (1 - extract(epoch from (w.at - w.start))::float8 / ${W})
          else 0
        end as estimate,
        extract(epoch from (w.at - r.updated_at))::float8 as since_last
      from rate_limits r, w
      where r.bucket = ${bucket} and r.key = ${key}`,
    );
    const row = result[0];
    if (!row) return { count: 0, secondsSinceLast: null };
    const count = Math.max(0, Number(row.estimate));
    return { count, secondsSinceLast: count > 0 ? Math.max(0, Number(row.since_last)) : null };
  }

  /**
   * Takes back one counted call: for limits that should count only failures, a call is counted before
   * the work (so parallel calls cannot all slip under the limit) and given back when it succeeded.
   */
  async release(bucket: string, key: string): Promise<void> {
    await this.db.execute(sql`
      update rate_limits set
        count = case when count > 0 then count - 1 else count end,
        prev_count = case when count = 0 and prev_count > 0 then prev_count - 1 else prev_count end
      where bucket = ${bucket} and key = ${key}`);
  }

  /**
   * Whether a call would be allowed now, without counting it: a cheap early refusal before work whose
   * outcome `consume` (in the same transaction as that work) then decides.
   */
  async wouldAllow(input: ConsumeInput): Promise<ConsumeResult> {
    const { bucket, key, limit, windowSeconds } = input;
    checkInput(input);
    const W = sql.raw(String(windowSeconds));
    const at = input.at ? sql`${input.at.toISOString()}::timestamptz` : sql`now()`;
    const result = await selectRows<Row>(
      this.db,
      sql`
      with w as (select t.at, to_timestamp(floor(extract(epoch from t.at) / ${W}) * ${W}) as start from (select ${at} as at) t)
      select
        coalesce(case when r.window_start = w.start then r.prev_count when r.window_start = w.start - make_interval(secs => ${W}) then r.count else 0 end, 0) as prev_count,
        coalesce(case when r.window_start = w.start then r.count else 0 end, 0) as count,
        extract(epoch from (w.at - w.start)) as elapsed
      from w left join rate_limits r on r.bucket = ${bucket} and r.key = ${key}`,
    );
    const row = result[0]!;
    const [prev, current, elapsed] = [Number(row.prev_count), Number(row.count), Number(row.elapsed)];
    const estimate = prev * (1 - elapsed / windowSeconds) + current;
    const allowed = estimate + 1 <= limit;
    return {
      allowed,
      limit,
      remaining: Math.max(0, Math.floor(limit - estimate)),
      retryAfterSeconds: allowed ? 0 : secondsUntilAllowed(limit, windowSeconds, prev, current, elapsed),
    };
  }

  /** Forget a key's history (e.g. after a successful login, a failed-login counter starts over). */
  async reset(bucket: string, key: string): Promise<void> {
    await this.db.execute(sql`delete from ${rateLimits} where bucket = ${bucket} and key = ${key}`);
  }

  /** Delete rows whose windows are both over; returns how many. Bounded so it never holds locks for long. */
  async purgeExpired(at?: Date): Promise<number> {
    const now = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
    const result = await selectRows<unknown>(
      this.db,
      sql`
      delete from rate_limits where (bucket, key) in (
        select bucket, key from rate_limits where expires_at < ${now} limit ${PURGE_BATCH}
      ) returning 1`,
    );
    return result.length;
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
