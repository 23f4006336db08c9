/**
 * Store operations: what a shop manager (admin GraphQL) or the command line does to run the shop. The
 * admin domain owns no tables: it validates the operator's request and calls the domains' operator
 * services (catalog, orders, coupons, reviews, contact, newsletter, customers), adding the cross-domain
 * steps — the completion e-mail queued with an order's completion, the Stripe call of a refund, the
 * dashboard, and sending failed mail again.
 */
import path from 'node:path';
import { variationChoices } from '../catalog/display-names.ts';
import { DEFAULT_LOCALE } from '../../lib/i18n/locales.ts';
import { formatMoney } from '../catalog/money.ts';
import { CatalogOperator } from '../catalog/operator.ts';
import { productStockStatus, stockStatusOf } from '../catalog/pricing.ts';
import { ContactOperator } from '../contact/operator.ts';
import { CouponOperator } from '../coupons/operator.ts';
import { CustomerRoles } from '../customers/operator.ts';
import type { DbOrTx } from '../db/connection.ts';
import type { Engine } from '../engine/index.ts';
import { storedLocale, storefrontPrefix } from '../i18n/stored-locale.ts';
import { orderCompleted } from '../mail/index.ts';
import { NewsletterOperator, type SubscriberStatus } from '../newsletter/operator.ts';
import { OrderOperator, ORDER_STATUSES, type RefundRow } from '../orders/operator.ts';
import type { OrderRow, OrderStatus } from '../orders/service.ts';
import { ReviewOperator } from '../reviews/operator.ts';
import { createPublisher, PublishBusyError, type Publisher, type PublishStatus } from '../publish/index.ts';
import { createStripeClient } from '../payments/stripe/client.ts';
import { StripePayments, type StripePaymentError } from '../payments/stripe/service.ts';
import { loadStripeSettings } from '../payments/stripe/settings.ts';
import { toCsv } from './csv.ts';
import { CustomerPrivacyAdmin } from './customer-privacy.ts';
import { AdminError } from './errors.ts';
import { readAdminSettings, type AdminSettings } from './settings.ts';
import { decodeUpload, storeDownload, storeImage } from './uploads.ts';
import { errorSummary } from '../error-summary.ts';

/** Who acts: `user:<id>` for a shop manager, `cli` for the command line (kept on refunds and notes). */
export type Actor = string;

export type RefundRequest = {
  orderId: number;
  amountCents?: number | null;
  reason?: string | null;
  idempotencyKey: string;
};
export type RefundResult = { refund: RefundRow; order: OrderRow; replayed: boolean };

export type StatusMove = {
  orderId: number;
  status: 'completed' | 'processing' | 'on-hold' | 'cancelled';
  note?: string | null;
  trackingNumber?: string | null;
  trackingCarrier?: string | null;
  trackingUrl?: string | null;
  /** Completion only: mail the customer (default true). */
  notifyCustomer?: boolean | null;
};

/** Which statuses an operator may move an order from, per target (WooCommerce allows more; these are the safe ones). */
const MOVES: Record<StatusMove['status'], OrderStatus[]> = {
  completed: ['processing', 'on-hold'],
  processing: ['on-hold'],
  'on-hold': ['pending', 'processing'],
  cancelled: ['pending', 'processing', 'on-hold'],
};

const PAGE_MAX = 100;
/** A pending Stripe refund older than this was interrupted (crash, timeout): a repeat sends it again with its key. */
const STALE_PENDING_MS = 60_000;

export function page(first?: number | null, offset?: number | null): { limit: number; offset: number } {
  const limit = first ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_MAX)
    throw new AdminError(`first must be between 1 and ${PAGE_MAX}.`);
  const off = offset ?? 0;
  if (!Number.isInteger(off) || off < 0 || off > 1_000_000) throw new AdminError('offset must be 0 or more.');
  return { limit, offset: off };
}

function plain(value: string | null | undefined, what: string, max: number): string {
  const s = (value ?? '')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .trim();
  if (s.length > max) throw new AdminError(`${what} is too long (at most ${max} characters).`);
  return s;
}

/** 'YYYY-MM-DD' (a whole UTC day) or an ISO date-time. `end`: a date-only value means the end of that day. */
export function parseDateBound(value: string | null | undefined, what: string, end = false): Date | null {
  if (!value) return null;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const d = new Date(dateOnly ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(d.getTime()) || (!dateOnly && !/^\d{4}-\d{2}-\d{2}T/.test(value)))
    throw new AdminError(`${what} must be a date (YYYY-MM-DD) or an ISO date-time.`);
  if (end && dateOnly) d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

export class AdminService {
  readonly catalog: CatalogOperator;
  readonly orders: OrderOperator;
  readonly coupons: CouponOperator;
  readonly reviews: ReviewOperator;
  readonly contact: ContactOperator;
  readonly newsletter: NewsletterOperator;
  readonly roles: CustomerRoles;
  /** Customers' privacy requests: export and erasure on request, each in the audit log. */
  readonly privacy: CustomerPrivacyAdmin;
  readonly settings: AdminSettings;
  /** Null when no Stripe secret key is configured: card refunds are refused then. */
  readonly stripe: StripePayments | null;
  private readonly log: (m: string) => void;

  constructor(
    readonly engine: Engine,
    options: {
      env?: Record<string, string | undefined>;
      stripe?: StripePayments | null;
      log?: (m: string) => void;
    } = {},
  ) {
    const env = options.env ?? process.env;
    const db = engine.database.db;
    this.catalog = new CatalogOperator(db, engine.catalog);
    this.orders = new OrderOperator(db, engine.orders);
    this.coupons = new CouponOperator(db);
    this.reviews = new ReviewOperator(db, engine.catalog);
    this.contact = new ContactOperator(db);
    this.newsletter = new NewsletterOperator(db);
    this.roles = new CustomerRoles(db);
    this.privacy = new CustomerPrivacyAdmin(engine);
    this.settings = readAdminSettings(env);
    this.log = options.log ?? ((m) => console.warn(`[meshfront] ${m}`));
    if (options.stripe !== undefined) this.stripe = options.stripe;
    else {
      const s = loadStripeSettings(env);
      this.stripe = s.enabled ? new StripePayments(createStripeClient(s), { currency: s.currency }) : null;
    }
  }

  // ---------- orders ----------

  async order(id: number): Promise<OrderRow> {
    const o = Number.isSafeInteger(id) && id > 0 && id <= 2147483647 ? await this.engine.orders.get(id) : null;
    if (!o) throw new AdminError(`There is no order ${id}.`, 'NOT_FOUND');
    return o;
  }

  async listOrders(f: {
    statuses?: string[] | null;
    dateFrom?: string | null;
    dateTo?: string | null;
    customer?: string | null;
    first?: number | null;
    offset?: number | null;
  }) {
    const statuses = (f.statuses ?? []).map((s) => s.toLowerCase().replace(/_/g, '-'));
    for (const s of statuses)
      if (!ORDER_STATUSES.includes(s as OrderStatus))
        throw new AdminError(`Unknown order status "${s}" (${ORDER_STATUSES.join(', ')}).`);
    const customer = plain(f.customer, 'The customer search', 200);
    return this.orders.list({
      statuses: statuses as OrderStatus[],
      from: parseDateBound(f.dateFrom, 'dateFrom'),
      to: parseDateBound(f.dateTo, 'dateTo', true),
      customer: customer || null,
      ...page(f.first, f.offset),
    });
  }

  async addOrderNote(orderId: number, note: string, actor: Actor): Promise<void> {
    const text = plain(note, 'The note', 2000);
    if (!text) throw new AdminError('The note is empty.');
    await this.order(orderId);
    await this.engine.orders.addNote(this.engine.database.db, orderId, `${text} (${actor})`);
  }

  /**
   * Moves an order: completed (note with the tracking number, customer e-mail), processing (from on
   * hold), on hold, cancelled (stock and coupon uses back). Refused with the order's current status when
   * the move is not allowed from there (or another process moved it first).
   */
  async moveOrder(move: StatusMove, actor: Actor): Promise<{ order: OrderRow; mailed: boolean }> {
    const from = MOVES[move.status];
    if (!from) throw new AdminError(`An order cannot be moved to "${move.status}" here.`);
    const note = plain(move.note, 'The note', 2000);
    const trackingNumber = plain(move.trackingNumber, 'The tracking number', 100);
    const trackingCarrier = plain(move.trackingCarrier, 'The carrier', 60);
    const trackingUrl = plain(move.trackingUrl, 'The tracking link', 500);
    if (trackingUrl && !/^https?:\/\/[^\s]+$/.test(trackingUrl))
      throw new AdminError('The tracking link must be a full http(s) URL.');
    if ((trackingNumber || trackingCarrier || trackingUrl) && move.status !== 'completed')
      throw new AdminError('Tracking details belong to completing an order.');
    const current = await this.order(move.orderId);
    const db = this.engine.database.db;
    const snap = await this.engine.catalog.snapshot();
    const notify = move.status === 'completed' && move.notifyCustomer !== false;
    const queued: { mailId: number | null } = { mailId: null };
    const moved = await db.transaction(async (tx) => {
      const label = move.status === 'on-hold' ? 'on hold' : move.status;
      if (move.status === 'cancelled') {
        const ok = await this.engine.orders.cancel(
          tx,
          current.id,
          `Order cancelled by ${actor}${note ? `: ${note}` : '.'} Stock returned.`,
          from,
        );
        return ok ? await this.engine.orders.get(current.id, tx) : null;
      }
      const row = await this.engine.orders.transition(tx, current.id, from, move.status);
      if (!row) return null;
      const parts = [`Order status changed from ${current.status} to ${label} by ${actor}.`];
      if (trackingNumber)
        parts.push(
          `Tracking number: ${trackingNumber}${trackingCarrier ? ` (${trackingCarrier})` : ''}${trackingUrl ? ` ${trackingUrl}` : ''}.`,
        );
      if (note) parts.push(note);
      await this.engine.orders.addNote(tx, current.id, parts.join(' '));
      if (move.status === 'completed') {
        const items = await this.engine.orders.items(row.id, tx);
        await this.engine.orders.grantDownloads(tx, snap, row, items);
        // The completion e-mail is queued with the completion (mail/queue.ts): it goes out even if this
        // process dies right after the commit.
        if (notify)
          queued.mailId = await this.queueCompletedMail(tx, row, items, {
            trackingNumber,
            trackingCarrier,
            trackingUrl,
            note,
          });
      }
      return row;
    });
    if (!moved) {
      const now = await this.order(current.id);
      throw new AdminError(
        `Order ${current.id} is ${now.status}; it cannot be moved to ${move.status} from there (allowed from ${from.join(', ')}).`,
        'CONFLICT',
      );
    }
    if (move.status === 'cancelled') this.engine.catalog.invalidate();
    // `mailed`: the customer has it now; otherwise the mail queue goes on trying (see /admin/mail).
    const { mailId } = queued;
    const mailed = mailId !== null && (await this.engine.mail.deliver([mailId])).get(mailId) === 'sent';
    return { order: moved, mailed };
  }

  /** Queues the completion e-mail in the completion's transaction; a mail that cannot be built is only logged. */
  private async queueCompletedMail(
    tx: DbOrTx,
    order: OrderRow,
    items: { name: string; quantity: number }[],
    t: { trackingNumber: string; trackingCarrier: string; trackingUrl: string; note: string },
  ): Promise<number | null> {
    if (!order.billing.email) return null;
    const site = this.engine.accounts.settings.siteUrl.replace(/\/+$/, '');
    const locale = storedLocale(order);
    let content: ReturnType<typeof orderCompleted>;
    try {
      content = orderCompleted({
        orderNumber: String(order.id),
        customerName: order.billing.firstName || null,
        lineItems: items.map((i) => ({ name: i.name, quantity: i.quantity })),
        trackingNumber: t.trackingNumber || null,
        trackingCarrier: t.trackingCarrier || null,
        trackingUrl: t.trackingUrl || null,
        note: t.note || null,
        orderUrl: `${site}${storefrontPrefix(locale)}/checkout/order-received/${order.id}/?key=${order.orderKey}`,
        locale,
      });
    } catch (err) {
      this.log(`completion e-mail for order ${order.id} cannot be built: ${errorSummary(err)}`);
      return null;
    }
    return this.engine.mail.enqueue(tx, {
      kind: 'order-completed',
      event: order.id,
      to: order.billing.email,
      ...content,
    });
  }

  /**
   * Refund all that is left (no amount) or part of an order. Card orders are refunded through Stripe with
   * the caller's idempotency key; other orders are recorded (the money goes back outside the shop). The
   * key makes a repeat safe: the same key answers with the first refund and refunds nothing more. When
   * everything is refunded the order becomes refunded.
   */
  async refund(req: RefundRequest, actor: Actor): Promise<RefundResult> {
    const key = (req.idempotencyKey ?? '').trim();
    if (!/^[A-Za-z0-9:._-]{8,100}$/.test(key))
      throw new AdminError(
        'The idempotency key must be 8–100 letters, digits or : . _ - (use a new random key for each refund).',
      );
    if (
      req.amountCents !== undefined &&
      req.amountCents !== null &&
      (!Number.isSafeInteger(req.amountCents) || req.amountCents <= 0)
    )
      throw new AdminError('The refund amount must be a positive whole number of cents.');
    const reason = plain(req.reason, 'The reason', 500);
    const db = this.engine.database.db;
    const ops = this.orders;
    const reserved = await db.transaction(async (tx) => {
      const order = await ops.lock(tx, req.orderId);
      if (!order) throw new AdminError(`There is no order ${req.orderId}.`, 'NOT_FOUND');
      const existing = await ops.refundByKey(key, tx);
      if (existing) {
        if (existing.orderId !== order.id)
          throw new AdminError('This idempotency key was already used for a refund of another order.', 'CONFLICT');
        const stale = existing.status === 'pending' && Date.now() - existing.updatedAt.getTime() > STALE_PENDING_MS;
        if (existing.status === 'succeeded' || (existing.status === 'pending' && !stale))
          return { refund: existing, order, replayed: true };
      }
      if (!['processing', 'completed', 'on-hold', 'refunded'].includes(order.status))
        throw new AdminError(`Only paid orders can be refunded; order ${order.id} is ${order.status}.`, 'CONFLICT');
      const retried = existing && existing.status !== 'succeeded' ? existing : null;
      const taken = (await ops.refundedCents(order.id, tx)) - (retried?.status === 'pending' ? retried.amountCents : 0);
      const remaining = order.totalCents - taken;
      if (remaining <= 0) throw new AdminError(`Order ${order.id} has been refunded in full already.`, 'CONFLICT');
      const amount = req.amountCents ?? remaining;
      if (amount > remaining)
        throw new AdminError(`At most ${formatMoney(remaining)} of order ${order.id} is left to refund.`);
      const method = order.paymentMethod === 'stripe' && order.transactionId ? 'stripe' : 'manual';
      if (method === 'stripe' && !this.stripe)
        throw new AdminError('Card refunds need the Stripe gateway (STRIPE_SECRET_KEY is not set).', 'PAYMENT_FAILED');
      const status = method === 'stripe' ? 'pending' : 'succeeded';
      const refund = retried
        ? await ops.updateRefund(retried.id, { status, amountCents: amount, reason, error: null }, tx)
        : await ops.insertRefund(tx, {
            orderId: order.id,
            amountCents: amount,
            reason,
            method,
            status,
            idempotencyKey: key,
            createdBy: actor,
          });
      if (method === 'manual') await this.recordRefunded(tx, order, refund, actor);
      return { refund, order, replayed: false };
    });
    if (reserved.replayed || reserved.refund.method !== 'stripe')
      return { ...reserved, order: await this.order(req.orderId) };

    const { refund, order } = reserved;
    try {
      const r = await this.stripe!.refund({
        paymentIntentId: order.transactionId!,
        amountCents: refund.amountCents,
        // Stripe keeps the key for 24 h: a repeat of an interrupted refund is answered, not executed again.
        idempotencyKey: `meshfront-refund-${key}`,
        reason: 'requested_by_customer',
        metadata: { order_id: String(order.id), refund_id: String(refund.id) },
      });
      const done = await db.transaction(async (tx) => {
        const locked = (await ops.lock(tx, order.id))!;
        const row = await ops.updateRefund(refund.id, { status: 'succeeded', stripeRefundId: r.id }, tx);
        await this.recordRefunded(tx, locked, row, actor);
        return row;
      });
      return { refund: done, order: await this.order(order.id), replayed: false };
    } catch (err) {
      const message = (err as StripePaymentError).message ?? String(err);
      await ops.updateRefund(refund.id, { status: 'failed', error: message.slice(0, 1000) });
      throw new AdminError(`Stripe did not refund the payment: ${message}`, 'PAYMENT_FAILED');
    }
  }

  /** The note of a refund, and the move to refunded once nothing is left. */
  private async recordRefunded(tx: DbOrTx, order: OrderRow, refund: RefundRow, actor: Actor): Promise<void> {
    const how =
      refund.method === 'stripe'
        ? `through Stripe (${refund.stripeRefundId})`
        : 'recorded (paid back outside the shop)';
    await this.engine.orders.addNote(
      tx,
      order.id,
      `Refunded ${formatMoney(refund.amountCents)} ${how} by ${actor}${refund.reason ? `: ${refund.reason}` : '.'}`,
    );
    // The refund's credit note, numbered with the refund (an order without an invoice needs none).
    await this.engine.invoices.issueCreditNote(tx, order, refund);
    const refunded = await this.orders.refundedCents(order.id, tx);
    if (refunded >= order.totalCents)
      await this.engine.orders.refund(tx, order.id, `Order fully refunded (${formatMoney(refunded)}).`);
  }

  // ---------- mail that keeps failing (the mail queue, mail/queue.ts) ----------

  /** Mail that failed, and mail being retried after a failure; most recently tried first. */
  failedMails(f: { first?: number | null; offset?: number | null }) {
    return this.engine.mail.troubled(page(f.first, f.offset));
  }

  /** Sends one mail again: a failed one gets a fresh set of attempts; the first attempt is made now. */
  async retryMail(id: number, actor: Actor) {
    const row = Number.isSafeInteger(id) && id > 0 && id <= 2147483647 ? await this.engine.mail.get(id) : null;
    if (!row) throw new AdminError(`There is no mail ${id}.`, 'NOT_FOUND');
    const r = await this.engine.mail.retry(id);
    if (!r)
      throw new AdminError(
        `Mail ${id} is ${row.status}: only a failed mail, or one waiting for its next attempt, can be sent again.`,
        'CONFLICT',
      );
    this.log(`mail ${id} (${row.kind}) sent again by ${actor}: ${r.outcome}`);
    return r;
  }

  /** Every failed mail gets a fresh set of attempts (once the mail server works again); how many. */
  async retryFailedMails(actor: Actor): Promise<number> {
    const n = await this.engine.mail.retryAllFailed();
    this.log(`${n} failed mails queued again by ${actor}`);
    return n;
  }

  // ---------- dashboard ----------

  async dashboard(now = new Date()) {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const end = new Date(start.getTime() + 86_400_000);
    const [today, byStatus, unanswered, pendingReviews] = await Promise.all([
      this.orders.salesBetween(start, end),
      this.orders.countByStatus(),
      this.contact.countUnanswered(),
      this.reviews.countPending(),
    ]);
    return {
      date: start.toISOString().slice(0, 10),
      ordersToday: today.orders,
      revenueTodayCents: today.grossCents - today.refundedCents,
      ordersByStatus: ORDER_STATUSES.map((status) => ({ status, count: byStatus[status] ?? 0 })),
      ordersToShip: byStatus.processing ?? 0,
      lowStock: await this.lowStock(),
      unansweredMessages: unanswered,
      pendingReviews,
    };
  }

  /** Published products and variations whose managed stock is at or below their low-stock amount. */
  async lowStock(limit = 50) {
    const snap = await this.engine.catalog.snapshot();
    const out: {
      productId: number;
      variationId: number | null;
      name: string;
      sku: string;
      stockQuantity: number;
      lowStockAmount: number;
      stockStatus: string;
    }[] = [];
    for (const p of snap.products) {
      if (p.status !== 'publish') continue;
      if (p.manageStock && p.type !== 'variable') {
        const threshold = p.lowStockAmount ?? this.settings.lowStockAmount;
        if ((p.stockQuantity ?? 0) <= threshold)
          out.push({
            productId: p.id,
            variationId: null,
            name: p.name,
            sku: p.sku,
            stockQuantity: p.stockQuantity ?? 0,
            lowStockAmount: threshold,
            stockStatus: productStockStatus(p),
          });
      }
      for (const v of p.variations) {
        if (!v.manageStock) continue;
        const threshold = v.lowStockAmount ?? p.lowStockAmount ?? this.settings.lowStockAmount;
        if ((v.stockQuantity ?? 0) <= threshold) {
          // Term names ("EU868, 5.8 dBi"), not the slugs the variation keys on.
          const label = variationChoices(v, DEFAULT_LOCALE.code);
          out.push({
            productId: p.id,
            variationId: v.id,
            name: label ? `${p.name} – ${label}` : p.name,
            sku: v.sku,
            stockQuantity: v.stockQuantity ?? 0,
            lowStockAmount: threshold,
            stockStatus: stockStatusOf(v),
          });
        }
      }
    }
    return out.sort((a, b) => a.stockQuantity - b.stockQuantity || a.name.localeCompare(b.name, 'en')).slice(0, limit);
  }

  // ---------- publishing (src/server/publish) ----------

  private publisherInstance: Publisher | null = null;

  /** The static-site publisher (rebuild + atomic switch); tests hand in one with a stand-in builder. */
  publisher(): Publisher {
    this.publisherInstance ??= createPublisher(this.engine);
    return this.publisherInstance;
  }

  usePublisher(publisher: Publisher): void {
    this.publisherInstance = publisher;
  }

  publishStatus(): Promise<PublishStatus> {
    return this.publisher().status();
  }

  /** Starts a publish and answers at once (the build runs in the background; poll publishStatus). */
  async publish(actor: Actor): Promise<PublishStatus> {
    try {
      const { done } = await this.publisher().start();
      done.then(
        (r) =>
          this.log(
            r.ok
              ? `publish by ${actor}: build ${r.buildId} is live (${r.durationMs} ms)`
              : `publish by ${actor} failed: ${r.error}`,
          ),
        (err) => this.log(`publish by ${actor} failed: ${(err as Error).message}`),
      );
    } catch (err) {
      if (err instanceof PublishBusyError) throw new AdminError(err.message, 'CONFLICT');
      throw err;
    }
    return this.publisher().status();
  }

  // ---------- uploads ----------

  async uploadImage(input: { fileName: string; contentBase64: string; altText?: string | null }): Promise<number> {
    const bytes = decodeUpload(input.contentBase64, this.settings.maxUploadBytes);
    const alt = plain(input.altText, 'The alt text', 300);
    const stored = await storeImage(this.settings.uploadsDir, input.fileName, bytes);
    return this.catalog.addImage({
      file: stored.sitePath,
      altText: alt,
      title: path.basename(stored.sitePath).replace(/\.[a-z]+$/, ''),
      width: stored.width,
      height: stored.height,
    });
  }

  /**
   * A downloadable file for a product: uploaded (contentBase64, size-limited) into the data directory's
   * downloads/, or — for large files copied there by hand — an existing file name found by the download service.
   */
  async addDownload(input: {
    productId: number;
    name: string;
    fileName: string;
    contentBase64?: string | null;
  }): Promise<string> {
    let file: string;
    if (input.contentBase64) {
      const bytes = decodeUpload(input.contentBase64, this.settings.maxUploadBytes);
      file = await storeDownload(path.join(this.engine.config.dataDir, 'downloads'), input.fileName, bytes);
    } else {
      file = (input.fileName ?? '').trim();
      if (!this.engine.accounts.downloads.locate(file))
        throw new AdminError(
          `No file "${file}" in the download directories; upload it or copy it into ${path.join(this.engine.config.dataDir, 'downloads')} first.`,
          'NOT_FOUND',
        );
    }
    return this.catalog.addDownload(input.productId, input.name, file);
  }

  // ---------- exports ----------

  async exportCsv(
    kind: 'contact-messages' | 'newsletter-subscribers',
    status?: SubscriberStatus | null,
  ): Promise<string> {
    if (kind === 'contact-messages') {
      const rows = await this.contact.all();
      return toCsv(
        [
          'id',
          'received_at',
          'first_name',
          'last_name',
          'email',
          'phone',
          'locale',
          'message',
          'answered_at',
          'mail_status',
        ],
        rows.map((r) => [
          r.id,
          r.createdAt,
          r.firstName,
          r.lastName,
          r.email,
          r.phone,
          r.locale,
          r.message,
          r.answeredAt,
          r.mailStatus,
        ]),
      );
    }
    const rows = await this.newsletter.all(status);
    return toCsv(
      ['id', 'email', 'status', 'locale', 'signed_up_at', 'confirmed_at', 'unsubscribed_at'],
      rows.map((r) => [r.id, r.email, r.status, r.locale, r.createdAt, r.confirmedAt, r.unsubscribedAt]),
    );
  }
}

const services = new WeakMap<Engine, AdminService>();

/** The engine's admin service (one per engine, made on first use). */
export function adminServiceFor(engine: Engine): AdminService {
  let s = services.get(engine);
  if (!s) {
    s = new AdminService(engine);
    services.set(engine, s);
  }
  return s;
}
