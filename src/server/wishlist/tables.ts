/** The wishlist domain's table: products a logged-in customer saved (product ids are catalog post ids). */
import { index, integer, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { customers } from '../customers/tables.ts';

export const wishlistItems = pgTable(
  'wishlist_items',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    productId: integer('product_id').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] }), index('wishlist_items_user_added').on(t.userId, t.addedAt)],
);
