/**
 * Refunds of orders (orders domain). One row per refund an operator asked for, keyed by the caller's
 * idempotency key (unique), so a repeated request finds the first one instead of refunding again.
 * method: stripe (sent to Stripe with the same key) | manual (recorded only: cash, KDA, bank transfer).
 * status: pending (being sent to Stripe) → succeeded | failed (a failed one may be retried with its key).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { orders } from './tables.ts';

export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason').notNull().default(''),
    method: text('method').notNull(),
    status: text('status').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    stripeRefundId: text('stripe_refund_id'),
    error: text('error'),
    /** Who asked: `user:<id>` for a shop manager, `cli` for the command line. */
    createdBy: text('created_by').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('order_refunds_idempotency_key').on(t.idempotencyKey),
    index('order_refunds_order').on(t.orderId),
    check('order_refunds_amount_positive', sql`${t.amountCents} > 0`),
  ],
);
