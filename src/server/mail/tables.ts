/**
 * The mail domain's table: the mail queue, one row per mail the shop sends. A row is written in the same
 * transaction as the change that causes the mail (order placed, reset requested, …), so a mail exists
 * exactly when its change committed; the sender (queue.ts) delivers it afterwards and keeps the outcome.
 *
 * status: queued → sent | failed (attempts used up, or refused for good) | cancelled (a newer mail of the
 * same topic replaced it before it went out). A failed mail goes back to queued when an operator retries it.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** A file a queued mail carries by reference, made when the mail is sent (an issued invoice's PDF). */
export type MailAttachmentRef = { kind: 'invoice'; id: number };

/** What a queued mail carries besides its recipients and subject; dropped once the mail is sent. */
export type QueuedContent = {
  text: string;
  html: string | null;
  replyTo: string | null;
  headers: Record<string, string>;
  attachments?: MailAttachmentRef[];
};

export const mailQueue = pgTable(
  'mail_queue',
  {
    id: serial('id').primaryKey(),
    /** `<kind>:<the event's own id>`, e.g. `order-confirmation:1144`: one mail per event, whoever queues it. */
    idempotencyKey: text('idempotency_key').notNull(),
    kind: text('kind').notNull(),
    /** Mails of one topic replace each other (only the newest reset link works): a newer one cancels the older. */
    topic: text('topic'),
    /** Set once when queued, the same on every attempt: a repeated delivery is recognisably the same mail. */
    messageId: text('message_id').notNull(),
    recipients: jsonb('recipients').$type<string[]>().notNull(),
    subject: text('subject').notNull(),
    /** Null once sent: what is not needed any more is not kept (a reset link in a database copy). */
    content: jsonb('content').$type<QueuedContent>(),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The last failure, addresses blanked out. */
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    check('mail_queue_status_known', sql`${t.status} IN ('queued', 'sent', 'failed', 'cancelled')`),
    uniqueIndex('mail_queue_idempotency_key').on(t.idempotencyKey),
    index('mail_queue_due').on(t.nextAttemptAt).where(sql`${t.status} = 'queued'`),
    index('mail_queue_status_updated').on(t.status, t.updatedAt),
    index('mail_queue_topic').on(t.topic).where(sql`${t.topic} is not null`),
  ],
);
