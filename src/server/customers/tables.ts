/**
 * The customers domain's table: registered customers (WordPress users with the WooCommerce customer
 * data). Ids are the numeric user ids that also key the customer's session (`sessions.customer_id`) and
 * own orders (`orders.customer_id`). Usernames and e-mails are unique case-insensitively.
 */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Address } from '../cart/model.ts';

export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    /**
     * When `email` was proven to be the account holder's (verification link, completed password reset,
     * a login provider's verified address); null = never, or the address changed since. A login
     * provider is linked to the account by e-mail alone only when this is set.
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true, mode: 'date' }),
    /** URL-friendly username (WordPress user_nicename). */
    nicename: text('nicename').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    displayName: text('display_name').notNull().default(''),
    /** scrypt$<log2N>$<r>$<p>$<salt>$<hash>; null for accounts created through a login provider only. */
    passwordHash: text('password_hash'),
    /** Bumped to invalidate every auth token at once (log out everywhere, password reset). */
    tokenVersion: integer('token_version').notNull().default(0),
    /** customer | shop_manager (store operations: admin GraphQL and `npm run shop`). */
    role: text('role').notNull().default('customer'),
    /** The shop locale the customer last used (en_US, de_DE …): the account's mails are written in it. */
    locale: text('locale').notNull().default('en_US'),
    /** The customer's Stripe customer (cus_…), made on the first card payment or saved card; null until then. */
    stripeCustomerId: text('stripe_customer_id'),
    billing: jsonb('billing').$type<Address>().notNull(),
    shipping: jsonb('shipping').$type<Address>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('customers_username_lower').on(sql`lower(${t.username})`),
    uniqueIndex('customers_email_lower').on(sql`lower(${t.email})`),
    index('customers_nicename').on(t.nicename),
    uniqueIndex('customers_stripe_customer_id').on(t.stripeCustomerId),
  ],
);
