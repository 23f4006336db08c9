/**
 * Engine-wide key/value store: counters other processes poll (catalog_version, stock_version) and
 * small settings. Values are JSON.
 */
import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const meta = pgTable('meta', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
