/**
 * The invoice domain's tables: the yearly counters of its two number series and the documents issued
 * (invoices and credit notes). Only src/server/invoices/ reads or writes them. See 0011_invoices.sql.
 */
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { orderRefunds } from '../orders/refund-tables.ts';
import { orders } from '../orders/tables.ts';
import type { InvoiceDocument, InvoiceKind } from './shape.ts';

/** The last number given out per series and calendar year: the next document takes last + 1. */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    series: text('series').$type<InvoiceKind>().notNull(),
    year: integer('year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [
    primaryKey({ name: 'invoice_counters_pk', columns: [t.series, t.year] }),
    check('invoice_counters_series_known', sql`${t.series} IN ('invoice', 'credit-note')`),
  ],
);

export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<InvoiceKind>().notNull(),
    /** As printed: the series' format applied to year and sequence ("2026-000123"). */
    number: text('number').notNull(),
    year: integer('year').notNull(),
    /** 1, 2, 3 … within the kind's series of the year, without gaps. */
    sequence: integer('sequence').notNull(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    /** A credit note: the invoice it corrects. */
    invoiceId: integer('invoice_id'),
    /** A credit note for a refund: that refund (at most one credit note each). */
    refundId: integer('refund_id').references(() => orderRefunds.id),
    /** YYYY-MM-DD in the shop's time zone. */
    issueDate: text('issue_date').notNull(),
    supplyDate: text('supply_date').notNull(),
    locale: text('locale').notNull(),
    /** The document's grand total (a credit note's: what it credits, positive). */
    grossCents: integer('gross_cents').notNull(),
    document: jsonb('document').$type<InvoiceDocument>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('invoices_kind_known', sql`${t.kind} IN ('invoice', 'credit-note')`),
    uniqueIndex('invoices_number').on(t.number),
    uniqueIndex('invoices_series_sequence').on(t.kind, t.year, t.sequence),
    uniqueIndex('invoices_one_per_order').on(t.orderId).where(sql`${t.kind} = 'invoice'`),
    uniqueIndex('invoices_one_per_refund').on(t.refundId).where(sql`${t.refundId} is not null`),
    index('invoices_order').on(t.orderId),
  ],
);
