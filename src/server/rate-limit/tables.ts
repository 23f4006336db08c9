/**
 * The rate-limit domain's table: one row per (bucket, key) holding a sliding-window counter — the count of
 * the current fixed window and of the one before it (see service.ts for the arithmetic). Rows are tiny and
 * short-lived; expired ones are deleted opportunistically by the service.
 */
import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const rateLimits = pgTable(
  'rate_limits',
  {
    /** What is limited, e.g. 'contact:ip', 'login:account'. */
    bucket: text('bucket').notNull(),
    /** Who is limited within the bucket: an IP address (IPv6 as its /64), an account id, an e-mail … */
    key: text('key').notNull(),
    /** Start of the current fixed window (aligned to the window length since the epoch). */
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    /** Allowed calls in the current window. */
    count: integer('count').notNull().default(0),
    /** Allowed calls in the window before it. */
    prevCount: integer('prev_count').notNull().default(0),
    /** Whether the most recent call was allowed: what the atomic upsert hands back to its caller. */
    allowed: boolean('allowed').notNull().default(true),
    /** Time of the most recent call (database clock unless a test passes one). */
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** After this both windows are over and the row means nothing: safe to delete. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key] }), index('rate_limits_expires_at').on(t.expiresAt)],
);
