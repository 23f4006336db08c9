/**
 * The session domain's table: WooCommerce-style server-side sessions keyed by customer id
 * (`t_<30 hex>` for guests, the user id for customers). A row exists only once something was stored
 * (cart, chosen shipping, …); a browsing guest has a signed token and no row.
 */
import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const sessions = pgTable(
  'sessions',
  {
    customerId: text('customer_id').primaryKey(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('sessions_expires_at').on(t.expiresAt)],
);
