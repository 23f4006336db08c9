/**
 * The order domain's tables. Money is integer cents (EUR); crypto amounts are exact decimal strings.
 * Only src/server/orders/ reads or writes them; checkout and payments go through the order service.
 */
import { sql } from 'drizzle-orm';
import type { Address } from '../cart/model.ts';
import type { VatCheck } from '../tax/vat-check.ts';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const ordersIdSeq = pgSequence('orders_id_seq', { startWith: 1001, maxValue: 2147483647 });

/** One variation choice of an order line as shown when ordering: taxonomy or local name, its label, the term's name. */
export type OrderItemAttributeName = { key: string; name: string; value: string };

/** An order keeps the addresses the checkout took from the session customer: same fields. */
export type OrderAddress = Address;

export type ShippingLine = {
  rateId: string;
  methodId: string;
  instanceId: number;
  label: string;
  totalCents: number;
  taxCents: number;
};
export type CouponLine = { code: string; discountCents: number; discountTaxCents: number; freeShipping: boolean };
export type TaxLine = {
  country: string;
  label: string;
  rateBasisPoints: number;
  taxCents: number;
  shippingTaxCents: number;
};

export const orders = pgTable(
  'orders',
  {
    id: integer('id').primaryKey().default(sql`nextval('orders_id_seq')`),
    /** Random secret (wc_order_…): whoever holds it may read the order (the order-received link). */
    orderKey: text('order_key').notNull().unique(),
    /** WooCommerce status without "wc-": pending | processing | on-hold | completed | cancelled | refunded | failed */
    status: text('status').notNull(),
    /** The session customer id (guest t_… or user id) that placed the order. */
    customerId: text('customer_id').notNull(),
    currency: text('currency').notNull(),
    paymentMethod: text('payment_method').notNull(),
    paymentMethodTitle: text('payment_method_title').notNull(),
    transactionId: text('transaction_id'),
    createdVia: text('created_via').notNull().default('checkout'),
    customerNote: text('customer_note').notNull().default(''),
    billing: jsonb('billing').$type<OrderAddress>().notNull(),
    shipping: jsonb('shipping').$type<OrderAddress>().notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    discountCents: integer('discount_cents').notNull(),
    discountTaxCents: integer('discount_tax_cents').notNull(),
    shippingCents: integer('shipping_cents').notNull(),
    shippingTaxCents: integer('shipping_tax_cents').notNull(),
    cartTaxCents: integer('cart_tax_cents').notNull(),
    totalTaxCents: integer('total_tax_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    shippingLines: jsonb('shipping_lines').$type<ShippingLine[]>().notNull().default([]),
    couponLines: jsonb('coupon_lines').$type<CouponLine[]>().notNull().default([]),
    taxLines: jsonb('tax_lines').$type<TaxLine[]>().notNull().default([]),
    metaData: jsonb('meta_data').$type<{ key: string; value: string }[]>().notNull().default([]),
    /** The shop's prices included tax when the order was placed (TAX_PRICES_INCLUDE_TAX); false before 0009_vat. */
    pricesIncludeTax: boolean('prices_include_tax').notNull().default(false),
    /** The business customer's VAT ID as checked ("FR40303265045"), or null. */
    vatId: text('vat_id'),
    /** The VAT ID was taken while VIES could not check it: the operator checks it before shipping. */
    vatIdUnverified: boolean('vat_id_unverified').notNull().default(false),
    /** No VAT charged: the customer accounts for it (reverse charge, tax/location.ts). */
    vatReverseCharge: boolean('vat_reverse_charge').notNull().default(false),
    /** What the VAT ID check found (VIES's answer, or why it could not ask), for the records. */
    vatCheck: jsonb('vat_check').$type<VatCheck>(),
    /** The note an invoice of this order must carry (the reverse charge's), or null. */
    vatNote: text('vat_note'),
    /** The shop locale the order was placed in (en_US, de_DE …): its mails and invoice use it. */
    locale: text('locale').notNull().default('en_US'),
    /** Stock was taken for this order (and must be given back when it is cancelled). */
    stockReduced: boolean('stock_reduced').notNull().default(false),
    downloadsGranted: boolean('downloads_granted').notNull().default(false),
    /** An unpaid pending order is cancelled (stock restored) after this time. */
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true, mode: 'date' }),
    /** Crypto payments: currency code (KDA), amount due, rate used, the order's own payment account. */
    paymentCurrency: text('payment_currency'),
    cryptoAmount: text('crypto_amount'),
    cryptoRate: text('crypto_rate'),
    paymentAddress: text('payment_address'),
    receivedUnconfirmed: text('received_unconfirmed'),
    receivedConfirmed: text('received_confirmed'),
    paymentExpiresAt: timestamp('payment_expires_at', { withTimezone: true, mode: 'date' }),
    dateCreated: timestamp('date_created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    dateModified: timestamp('date_modified', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    datePaid: timestamp('date_paid', { withTimezone: true, mode: 'date' }),
    dateCompleted: timestamp('date_completed', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('orders_customer').on(t.customerId),
    index('orders_status_hold').on(t.status, t.holdExpiresAt),
    index('orders_date_created').on(t.dateCreated),
    // A payment (Stripe PaymentIntent, …) pays one order only.
    uniqueIndex('orders_payment_transaction')
      .on(t.paymentMethod, t.transactionId)
      .where(sql`${t.transactionId} is not null`),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id').notNull(),
    variationId: integer('variation_id'),
    name: text('name').notNull(),
    sku: text('sku').notNull().default(''),
    quantity: integer('quantity').notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    subtotalTaxCents: integer('subtotal_tax_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    totalTaxCents: integer('total_tax_cents').notNull(),
    /** The line's tax rate in basis points (1900 = 19%; 0: no tax, e.g. reverse charged or outside the EU). */
    taxRateBasisPoints: integer('tax_rate_basis_points').notNull().default(0),
    /** The unit price charged: including the tax when the order's prices include tax, else without. */
    unitPriceCents: integer('unit_price_cents').notNull().default(0),
    /** total + total tax: what the customer pays for the line. */
    totalGrossCents: integer('total_gross_cents').notNull().default(0),
    virtual: boolean('virtual').notNull().default(false),
    downloadable: boolean('downloadable').notNull().default(false),
    /** The chosen values by attribute: taxonomy or local name → term slug or value ("pa_gain" → "5-8-dbi"). */
    attributes: jsonb('attributes').$type<Record<string, string>>().notNull().default({}),
    /** The choices as shown when ordering, in the order's language: [{ key: "pa_gain", name: "Antennengewinn", value: "5,8 dBi" }]. */
    attributeNames: jsonb('attribute_names').$type<OrderItemAttributeName[]>().notNull().default([]),
    backordered: integer('backordered').notNull().default(0),
    /** Units taken from stock for this line (0 when the product does not manage stock). */
    stockReduced: integer('stock_reduced').notNull().default(0),
  },
  (t) => [index('order_items_order').on(t.orderId)],
);

export const downloadPermissions = pgTable(
  'download_permissions',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id').notNull(),
    downloadId: text('download_id').notNull(),
    /** null = unlimited. */
    downloadsRemaining: integer('downloads_remaining'),
    /** null = never expires. */
    accessExpires: timestamp('access_expires', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('download_permissions_order_download').on(t.orderId, t.downloadId)],
);

export const orderNotes = pgTable(
  'order_notes',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    note: text('note').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('order_notes_order').on(t.orderId)],
);

/** Stripe webhook events already handled (replays are acknowledged and ignored). */
export const stripeEvents = pgTable('stripe_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
