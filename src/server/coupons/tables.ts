/**
 * The coupon domain's tables. Amounts are integer cents; a percent coupon's amount is hundredths of a
 * percent (10% = 1000), so "12.5" percent stays exact. Restrictions name products and categories by slug,
 * which survive a catalog re-seed. Only src/server/coupons/ reads or writes these tables.
 */
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const coupons = pgTable('coupons', {
  id: serial('id').primaryKey(),
  /** Lower-case, as WooCommerce stores codes. */
  code: text('code').notNull().unique(),
  description: text('description').notNull().default(''),
  /** percent | fixed_cart | fixed_product */
  discountType: text('discount_type').notNull(),
  amountCents: integer('amount_cents').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
  usageLimit: integer('usage_limit'),
  usageLimitPerUser: integer('usage_limit_per_user'),
  /** Orders that used the coupon (incremented atomically at checkout, decremented on cancel). */
  usageCount: integer('usage_count').notNull().default(0),
  minimumCents: integer('minimum_cents'),
  maximumCents: integer('maximum_cents'),
  individualUse: boolean('individual_use').notNull().default(false),
  freeShipping: boolean('free_shipping').notNull().default(false),
  excludeSaleItems: boolean('exclude_sale_items').notNull().default(false),
  productSlugs: jsonb('product_slugs').$type<string[]>().notNull().default([]),
  excludedProductSlugs: jsonb('excluded_product_slugs').$type<string[]>().notNull().default([]),
  categorySlugs: jsonb('category_slugs').$type<string[]>().notNull().default([]),
  excludedCategorySlugs: jsonb('excluded_category_slugs').$type<string[]>().notNull().default([]),
  /** Billing e-mails allowed to use the coupon; `*` wildcards as WooCommerce (e.g. *@example.com). */
  emailRestrictions: jsonb('email_restrictions').$type<string[]>().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** One row per (coupon, order, customer key): the per-customer usage limit counts distinct orders by key. */
export const couponUsages = pgTable(
  'coupon_usages',
  {
    id: serial('id').primaryKey(),
    couponId: integer('coupon_id')
      .notNull()
      .references(() => coupons.id, { onDelete: 'cascade' }),
    orderId: integer('order_id').notNull(),
    /** `email:<lower-case billing e-mail>` (and `user:<id>` rows for logged-in customers). */
    customerKey: text('customer_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('coupon_usages_coupon_order_customer').on(t.couponId, t.orderId, t.customerKey),
    index('coupon_usages_coupon_customer').on(t.couponId, t.customerKey),
  ],
);
