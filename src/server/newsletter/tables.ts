/**
 * The newsletter domain's table: one row per address (stored lower-cased), double opt-in.
 * status: pending (confirmation mail sent) → confirmed → unsubscribed (a new sign-up starts over).
 * Tokens are random and only their SHA-256 is stored: a database leak does not let anyone confirm or
 * unsubscribe other people.
 */
import { index, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const newsletterSubscribers = pgTable(
  'newsletter_subscribers',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    /** Locale code (en_US, de_DE …) of the form it was entered in: where its confirmation pages point. */
    locale: text('locale').notNull().default('en_US'),
    status: text('status').notNull().default('pending'),
    /** SHA-256 (hex) of the single-use confirmation token; null once used. */
    confirmTokenHash: text('confirm_token_hash'),
    confirmExpiresAt: timestamp('confirm_expires_at', { withTimezone: true, mode: 'date' }),
    /** SHA-256 (hex) of the unsubscribe token sent in the welcome mail (reusable: unsubscribing twice is fine). */
    unsubscribeTokenHash: text('unsubscribe_token_hash'),
    /** Proof of consent: when and from where the sign-up was made and confirmed. */
    subscribedIp: text('subscribed_ip'),
    confirmedIp: text('confirmed_ip'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('newsletter_subscribers_email_unique').on(t.email),
    uniqueIndex('newsletter_subscribers_confirm_token_hash_unique').on(t.confirmTokenHash),
    uniqueIndex('newsletter_subscribers_unsubscribe_token_hash_unique').on(t.unsubscribeTokenHash),
    index('newsletter_subscribers_status').on(t.status),
  ],
);
