/**
 * Invoices and credit notes of orders. An order gets its invoice in the transaction that makes it
 * processing or completed (paid, or cash on delivery on its way); a refund gets a credit note in the
 * transaction that records it, and an invoiced order that is refunded or cancelled otherwise gets one for
 * whatever is left. Numbers come from a gapless series per kind and calendar year (invoice_counters: one
 * row per series and year, taken with an upsert that returns the new number and holds the row until the
 * transaction ends, so numbers are given out in commit order and a rollback gives its number back).
 *
 * Downloads go through short-lived signed links (HMAC over document, order and expiry), handed out with
 * the order to whoever may read it (its owner, the holder of its order key, the shop manager).
 */
import crypto from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/connection.ts';
import { storedLocale } from '../i18n/stored-locale.ts';
import { translate } from '../../lib/i18n/index.ts';
import type { OrderRow, OrderService } from '../orders/service.ts';
import { creditByRate, creditNoteDocument, invoiceDocument, remainingByRate, type DocumentHeader } from './document.ts';
import { formatDocumentNumber, type InvoiceSettings } from './settings.ts';
import type { InvoiceKind } from './shape.ts';
import { invoiceCounters, invoices } from './tables.ts';
import { dateTimeFormat } from '../../lib/intl-formatters.ts';

export type InvoiceRow = typeof invoices.$inferSelect;

/** A refund as the credit note needs it (orders/refund-tables.ts). */
export type CreditedRefund = { id: number; amountCents: number; reason: string };

/** Statuses an order has its invoice in. */
const INVOICED_STATUSES = new Set(['processing', 'completed']);
/** Statuses that take back what an invoice charged (what is left of it). */
const REVERSED_STATUSES = new Set(['refunded', 'cancelled']);

const LINK_TTL_SECONDS = 3600;

export class InvoiceService {
  private readonly linkKey: Buffer;
  /**
   * Invoices issued in a transaction, by transaction and order: the checkout's confirmation mail attaches
   * the invoice its status change has just issued, without another SELECT while the transaction holds
   * the embedded database.
   */
  private readonly issuedIn = new WeakMap<object, Map<number, InvoiceRow>>();

  constructor(
    private readonly db: Database,
    private readonly orders: OrderService,
    readonly settings: InvoiceSettings,
    secret: string,
    readonly brand: string,
  ) {
    this.linkKey = crypto.createHmac('sha256', secret).update('meshfront invoice download links').digest();
  }

  /**
   * The order domain's status hook: the invoice on processing/completed, a credit note for what is left on
   * refunded/cancelled. The document issued now, or null (the order had its invoice already, or none).
   */
  readonly onOrderStatus = async (tx: DbOrTx, order: OrderRow): Promise<InvoiceRow | null> => {
    if (INVOICED_STATUSES.has(order.status)) {
      const { row, issued } = await this.issueOnce(tx, order);
      return issued ? row : null;
    }
    if (REVERSED_STATUSES.has(order.status)) return this.issueCreditNote(tx, order, null);
    return null;
  };

  /** YYYY-MM-DD of `at` in the documents' time zone. */
  private day(at: Date): string {
    return dateTimeFormat('en-CA', {
      timeZone: this.settings.timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(at);
  }

  /** The next number of the series in `year`: the counter row stays locked until `tx` ends. */
  private async nextNumber(tx: DbOrTx, kind: InvoiceKind, year: number): Promise<number> {
    const [row] = await tx
      .insert(invoiceCounters)
      .values({ series: kind, year, lastNumber: 1 })
      .onConflictDoUpdate({
        target: [invoiceCounters.series, invoiceCounters.year],
        set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` },
      })
      .returning({ n: invoiceCounters.lastNumber });
    return row!.n;
  }

  private async header(
    tx: DbOrTx,
    kind: InvoiceKind,
    supplyDate: string,
  ): Promise<DocumentHeader & { year: number; sequence: number }> {
    const issueDate = this.day(new Date());
    const year = Number(issueDate.slice(0, 4));
    const sequence = await this.nextNumber(tx, kind, year);
    const format = kind === 'invoice' ? this.settings.invoiceNumberFormat : this.settings.creditNoteNumberFormat;
    return {
      kind,
      number: formatDocumentNumber(format, year, sequence),
      issueDate,
      supplyDate,
      seller: this.settings.seller,
      year,
      sequence,
    };
  }

  async invoiceOf(orderId: number, db: DbOrTx = this.db): Promise<InvoiceRow | null> {
    const issued = this.issuedIn.get(db)?.get(orderId);
    if (issued) return issued;
    const [row] = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, 'invoice')));
    return row ?? null;
  }

  /** The order's invoice and credit notes, oldest first. */
  async listForOrder(orderId: number, db: DbOrTx = this.db): Promise<InvoiceRow[]> {
    return db.select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(asc(invoices.id));
  }

  async get(id: number): Promise<InvoiceRow | null> {
    if (!Number.isSafeInteger(id) || id <= 0 || id > 2147483647) return null;
    const [row] = await this.db.select().from(invoices).where(eq(invoices.id, id));
    return row ?? null;
  }

  /** Issues the order's invoice in `tx` (once: an order that has one keeps it); the invoice. */
  async issueInvoice(tx: DbOrTx, order: OrderRow): Promise<InvoiceRow> {
    return (await this.issueOnce(tx, order)).row;
  }

  /** The order's invoice, and whether it was issued now. */
  private async issueOnce(tx: DbOrTx, order: OrderRow): Promise<{ row: InvoiceRow; issued: boolean }> {
    const existing = await this.invoiceOf(order.id, tx);
    if (existing) return { row: existing, issued: false };
    const items = await this.orders.items(order.id, tx);
    const supplyDate = this.day(order.datePaid ?? new Date());
    const { year, sequence, ...header } = await this.header(tx, 'invoice', supplyDate);
    const document = invoiceDocument(header, order, items, this.day(order.dateCreated));
    const [row] = await tx
      .insert(invoices)
      .values({
        kind: 'invoice',
        number: header.number,
        year,
        sequence,
        orderId: order.id,
        issueDate: header.issueDate,
        supplyDate,
        locale: document.locale,
        grossCents: document.totals.grossCents,
        document,
      })
      .returning();
    if (tx !== this.db) {
      let byOrder = this.issuedIn.get(tx);
      if (!byOrder) {
        byOrder = new Map();
        this.issuedIn.set(tx, byOrder);
      }
      byOrder.set(order.id, row!);
    }
    return { row: row!, issued: true };
  }

  /**
   * A credit note in `tx` for a refund (its amount; once per refund), or with `refund` null for all that
   * is left of the invoice. Null when the order has no invoice or nothing is left to credit.
   */
  async issueCreditNote(tx: DbOrTx, order: OrderRow, refund: CreditedRefund | null): Promise<InvoiceRow | null> {
    const invoice = await this.invoiceOf(order.id, tx);
    if (!invoice) return null;
    const all = await this.listForOrder(order.id, tx);
    if (refund) {
      const done = all.find((r) => r.refundId === refund.id);
      if (done) return done;
    }
    const credited = all.filter((r) => r.kind === 'credit-note').map((r) => r.document);
    const credit = creditByRate(remainingByRate(invoice.document, credited), refund ? refund.amountCents : null);
    if (credit.length === 0) return null;
    const { year, sequence, ...header } = await this.header(tx, 'credit-note', this.day(new Date()));
    const document = creditNoteDocument(header, invoice.document, credit, refund?.reason ?? '');
    const [row] = await tx
      .insert(invoices)
      .values({
        kind: 'credit-note',
        number: header.number,
        year,
        sequence,
        orderId: order.id,
        invoiceId: invoice.id,
        refundId: refund?.id ?? null,
        issueDate: header.issueDate,
        supplyDate: header.supplyDate,
        locale: document.locale,
        grossCents: document.totals.grossCents,
        document,
      })
      .returning();
    return row!;
  }

  /** The PDF. pdfkit and its fonts load with the first one: an engine that never prints one never holds them. */
  async pdf(row: Pick<InvoiceRow, 'document'>): Promise<Buffer> {
    const { renderInvoicePdf } = await import('./pdf.ts');
    return renderInvoicePdf(row.document, this.brand);
  }

  /**
   * The file name in the document's own language, as its title reads: "Invoice-2026-000123.pdf",
   * "Rechnung-2026-000123.pdf", "Avoir-CN-2026-000004.pdf". Plain ASCII (accents dropped, spaces as
   * hyphens): every mail program and file system keeps it as it is.
   */
  fileName(row: Pick<InvoiceRow, 'kind' | 'number' | 'locale'>): string {
    const title = translate(storedLocale(row), row.kind === 'invoice' ? 'invoice.title' : 'invoice.creditNoteTitle');
    const ascii = (value: string) =>
      value
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/\s+/g, '-')
        .replace(/[^A-Za-z0-9._-]/g, '_');
    return `${ascii(title)}-${ascii(row.number)}.pdf`;
  }

  // ---------- signed download links ----------

  sign(row: Pick<InvoiceRow, 'id' | 'orderId'>, now = Date.now()): string {
    const payload = Buffer.from(
      JSON.stringify({ i: row.id, o: row.orderId, e: Math.floor(now / 1000) + LINK_TTL_SECONDS }),
    ).toString('base64url');
    const mac = crypto.createHmac('sha256', this.linkKey).update(payload).digest('base64url');
    return `${payload}.${mac}`;
  }

  /** The document a link stands for, or why not: 'invalid' (not ours, tampered), 'expired'. */
  async verify(token: string, now = Date.now()): Promise<InvoiceRow | 'invalid' | 'expired'> {
    const m = /^([\w-]{1,200})\.([\w-]{43})$/.exec(token);
    if (!m) return 'invalid';
    const expected = Buffer.from(crypto.createHmac('sha256', this.linkKey).update(m[1]!).digest('base64url'));
    const given = Buffer.from(m[2]!);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'invalid';
    let claims: { i?: unknown; o?: unknown; e?: unknown };
    try {
      claims = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8'));
    } catch {
      return 'invalid';
    }
    if (typeof claims.i !== 'number' || typeof claims.o !== 'number' || typeof claims.e !== 'number') return 'invalid';
    if (claims.e * 1000 <= now) return 'expired';
    const row = await this.get(claims.i);
    return row && row.orderId === claims.o ? row : 'invalid';
  }

  /** The download path of a document (relative to the site). */
  urlFor(row: Pick<InvoiceRow, 'id' | 'orderId'>): string {
    return `/api/invoices/${this.sign(row)}`;
  }
}
