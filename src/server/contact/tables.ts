/**
 * The contact domain's table: every message sent through the contact form, kept whether or not the
 * notification e-mail to support went out (mail_status says which), so nothing a visitor wrote is lost.
 */
import { index, pgTable, real, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: serial('id').primaryKey(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    message: text('message').notNull(),
    locale: text('locale'),
    /** Client address as the server saw it (see rate-limit/client-address.ts). */
    remoteIp: text('remote_ip'),
    userAgent: text('user_agent'),
    /** reCAPTCHA v3 score; null when verification was off. */
    botScore: real('bot_score'),
    /** pending → sent | failed: whether the notification to SUPPORT_EMAIL was delivered. */
    mailStatus: text('mail_status').notNull().default('pending'),
    mailError: text('mail_error'),
    /** Set by a shop manager once the message was answered (the dashboard counts the others). */
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('contact_messages_created_at').on(t.createdAt), index('contact_messages_email').on(t.email)],
);
