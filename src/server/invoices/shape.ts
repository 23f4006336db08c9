/**
 * The shape of an issued invoice or credit note as its table keeps it (invoices.document, frozen when
 * issued). Types only, importing nothing that reads the database: the table file names them.
 */
import type { SellerDetails } from './settings.ts';

export type InvoiceKind = 'invoice' | 'credit-note';

/** item: a product line; shipping; discount (negative); credit: a credit note's amount at one rate. */
export type DocumentLineKind = 'item' | 'shipping' | 'discount' | 'credit';

export type DocumentLine = {
  kind: DocumentLineKind;
  /** The product (with its variation's terms), the shipping method or the coupon codes. */
  description: string;
  sku: string;
  quantity: number;
  unitNetCents: number;
  rateBasisPoints: number;
  netCents: number;
  vatCents: number;
  grossCents: number;
};

export type RateTotal = { rateBasisPoints: number; netCents: number; vatCents: number; grossCents: number };

export type DocumentParty = {
  name: string;
  company: string;
  addressLines: string[];
  /** ISO 3166-1 alpha-2; printed as the country's name in the document's language. */
  country: string;
  vatId: string | null;
  email: string;
};

export type InvoiceDocument = {
  version: 1;
  kind: InvoiceKind;
  number: string;
  issueDate: string;
  supplyDate: string;
  locale: string;
  currency: string;
  seller: SellerDetails;
  buyer: DocumentParty;
  order: { id: number; date: string; paymentMethodTitle: string; paymentMethod: string };
  lines: DocumentLine[];
  rates: RateTotal[];
  totals: { netCents: number; vatCents: number; grossCents: number };
  /** No VAT charged: the customer accounts for it (the reverse-charge note is printed). */
  reverseCharge: boolean;
  /** A credit note: the invoice it corrects, and why (the refund's reason). */
  corrects: { number: string; issueDate: string } | null;
  reason: string;
};
