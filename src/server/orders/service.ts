/**
 * The order service: orders, their lines, notes and download permissions, and every status change
 * (WooCommerce's rules). Status changes are conditional UPDATEs (`… where status in (…)`),
 * so a webhook, a watcher and a sweeper in several processes can race on one order and exactly one wins;
 * side effects (stock back, coupon uses back, download permissions) run only for the winner, in the same
 * transaction.
 */
import crypto from 'node:crypto';
import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { CatalogService } from '../catalog/service.ts';
import type { CatalogSnapshot } from '../catalog/snapshot.ts';
import { restoreStock } from '../catalog/stock.ts';
import type { CouponService } from '../coupons/service.ts';
import type { Database, DbOrTx } from '../db/connection.ts';
import { downloadPermissions, orderItems, orderNotes, orders, stripeEvents } from './tables.ts';

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type DownloadPermissionRow = typeof downloadPermissions.$inferSelect;
export type NewOrder = Omit<typeof orders.$inferInsert, 'id' | 'orderKey'>;
export type NewOrderItem = Omit<typeof orderItems.$inferInsert, 'id' | 'orderId'>;

export type OrderStatus = 'pending' | 'processing' | 'on-hold' | 'completed' | 'cancelled' | 'refunded' | 'failed';

const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** `wc_order_` + 20 random characters from 62 (≈119 bits): the secret of the order-received link. */
export function newOrderKey(): string {
  const bytes = crypto.randomBytes(40);
  let out = '';
  for (const b of bytes) {
    if (b >= 248) continue; // 248 = 4 × 62: keeps the choice uniform
    out += KEY_ALPHABET[b % 62];
    if (out.length === 20) break;
  }
  return out.length === 20 ? `wc_order_${out}` : newOrderKey();
}

/** WooCommerce: a line needs processing unless its product is both virtual and downloadable. */
export function needsProcessing(items: Pick<OrderItemRow, 'virtual' | 'downloadable'>[]): boolean {
  return items.some((i) => !(i.virtual && i.downloadable));
}

export function needsPayment(o: Pick<OrderRow, 'status' | 'totalCents'>): boolean {
  return (o.status === 'pending' || o.status === 'failed') && o.totalCents > 0;
}

export function isDownloadPermitted(o: Pick<OrderRow, 'status'>): boolean {
  return o.status === 'completed' || o.status === 'processing';
}

/** Work that must commit with a status change (the invoice of a paid order): runs in its transaction. */
export type OrderStatusListener = (tx: DbOrTx, order: OrderRow) => Promise<void>;

export class OrderService {
  private readonly statusListeners: OrderStatusListener[] = [];
  /**
   * The lines of orders created in a transaction, by transaction: the checkout's own steps (invoice,
   * confirmation mail, payment) read the lines it has just written, and a second SELECT of the same rows
   * would only lengthen the transaction that holds the embedded database. Every write to order lines
   * goes through this class and drops the copy.
   */
  private readonly createdItems = new WeakMap<object, Map<number, OrderItemRow[]>>();

  constructor(
    private readonly db: Database,
    private readonly catalog: CatalogService,
    private readonly coupons: CouponService,
  ) {}

  async create(tx: DbOrTx, order: NewOrder, items: NewOrderItem[]): Promise<OrderRow> {
    const [row] = await tx
      .insert(orders)
      .values({ ...order, orderKey: newOrderKey() })
      .returning();
    const written = items.length
      ? await tx
          .insert(orderItems)
          .values(items.map((i) => ({ ...i, orderId: row!.id })))
          .returning()
      : [];
    if (tx !== this.db) {
      let byOrder = this.createdItems.get(tx);
      if (!byOrder) {
        byOrder = new Map();
        this.createdItems.set(tx, byOrder);
      }
      byOrder.set(
        row!.id,
        written.sort((a, b) => a.id - b.id),
      );
    }
    return row!;
  }

  async get(id: number, db: DbOrTx = this.db): Promise<OrderRow | null> {
    const [row] = await db.select().from(orders).where(eq(orders.id, id));
    return row ?? null;
  }

  async getByKey(key: string, db: DbOrTx = this.db): Promise<OrderRow | null> {
    const [row] = await db.select().from(orders).where(eq(orders.orderKey, key));
    return row ?? null;
  }

  async getByTransaction(paymentMethod: string, transactionId: string, db: DbOrTx = this.db): Promise<OrderRow | null> {
    const [row] = await db
      .select()
      .from(orders)
      .where(and(eq(orders.paymentMethod, paymentMethod), eq(orders.transactionId, transactionId)));
    return row ?? null;
  }

  async items(orderId: number, db: DbOrTx = this.db): Promise<OrderItemRow[]> {
    const created = this.createdItems.get(db)?.get(orderId);
    if (created) return created.map((item) => structuredClone(item));
    return db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
  }

  async downloads(orderId: number, db: DbOrTx = this.db): Promise<DownloadPermissionRow[]> {
    return db
      .select()
      .from(downloadPermissions)
      .where(eq(downloadPermissions.orderId, orderId))
      .orderBy(asc(downloadPermissions.id));
  }

  async downloadPermission(id: number, db: DbOrTx = this.db): Promise<DownloadPermissionRow | null> {
    const [row] = await db.select().from(downloadPermissions).where(eq(downloadPermissions.id, id));
    return row ?? null;
  }

  /**
   * Takes one download off a permission's count in one conditional UPDATE, so concurrent downloads never
   * overdraw it; null when none is left or the access has expired. `remaining` is null for no limit.
   */
  async takeDownload(permissionId: number, db: DbOrTx = this.db): Promise<{ remaining: number | null } | null> {
    const [taken] = await db
      .update(downloadPermissions)
      .set({
        downloadsRemaining: sql`case when ${downloadPermissions.downloadsRemaining} is null then null else ${downloadPermissions.downloadsRemaining} - 1 end`,
      })
      .where(
        and(
          eq(downloadPermissions.id, permissionId),
          or(isNull(downloadPermissions.downloadsRemaining), gt(downloadPermissions.downloadsRemaining, 0)),
          or(isNull(downloadPermissions.accessExpires), gt(downloadPermissions.accessExpires, sql`now()`)),
        ),
      )
      .returning({ remaining: downloadPermissions.downloadsRemaining });
    return taken ?? null;
  }

  /**
   * Records a Stripe event id in the caller's transaction; false when it was recorded before (a replay),
   * so the event acts once and a failed transaction lets Stripe retry it.
   */
  async recordStripeEvent(tx: DbOrTx, eventId: string, type: string): Promise<boolean> {
    const fresh = await tx
      .insert(stripeEvents)
      .values({ eventId, type })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.eventId });
    return fresh.length > 0;
  }

  async stripeEventProcessed(eventId: string): Promise<boolean> {
    return (
      (await this.db.select({ id: stripeEvents.eventId }).from(stripeEvents).where(eq(stripeEvents.eventId, eventId)))
        .length > 0
    );
  }

  async notes(orderId: number, db: DbOrTx = this.db): Promise<{ note: string; createdAt: Date }[]> {
    return db
      .select({ note: orderNotes.note, createdAt: orderNotes.createdAt })
      .from(orderNotes)
      .where(eq(orderNotes.orderId, orderId))
      .orderBy(asc(orderNotes.id));
  }

  async addNote(tx: DbOrTx, orderId: number, note: string): Promise<void> {
    await tx.insert(orderNotes).values({ orderId, note });
  }

  /** Orders placed by a session customer (guest id or user id), newest first. */
  /** The order with this number whose billing e-mail matches (case-insensitive), or null. */
  async findByNumberAndEmail(orderNumber: string, email: string): Promise<OrderRow | null> {
    if (!/^\d{1,10}$/.test(orderNumber.trim())) return null;
    const order = await this.get(Number(orderNumber.trim()));
    const billingEmail = order?.billing?.email?.trim().toLowerCase();
    return order && billingEmail && billingEmail === email.trim().toLowerCase() ? order : null;
  }

  async listByCustomer(customerId: string, limit = 100): Promise<OrderRow[]> {
    return this.db
      .select()
      .from(orders)
      .where(eq(orders.customerId, customerId))
      .orderBy(sql`${orders.id} desc`)
      .limit(limit);
  }

  /** Called with the order after every status change this service makes, in the change's transaction. */
  onStatusChange(listener: OrderStatusListener): void {
    this.statusListeners.push(listener);
  }

  /**
   * Move an order from one of `from` to `to`; true when this call made the change (someone else may
   * have moved it first). Extra columns are set in the same statement; the status listeners run after it.
   */
  async transition(
    tx: DbOrTx,
    orderId: number,
    from: OrderStatus[],
    to: OrderStatus,
    set: Partial<typeof orders.$inferInsert> = {},
  ): Promise<OrderRow | null> {
    const rows = await tx
      .update(orders)
      .set({
        ...set,
        status: to,
        dateModified: new Date(),
        ...(to === 'completed' ? { dateCompleted: new Date() } : {}),
      })
      .where(and(eq(orders.id, orderId), inArray(orders.status, from)))
      .returning();
    const row = rows[0] ?? null;
    if (row) for (const listener of this.statusListeners) await listener(tx, row);
    return row;
  }

  /**
   * WooCommerce's payment_complete: processing, or completed when every line is virtual and downloadable;
   * records the transaction id and date paid, grants download permissions. Allowed from pending,
   * on-hold and failed. Returns the order when this call marked it paid.
   */
  async paymentComplete(
    tx: DbOrTx,
    snap: CatalogSnapshot,
    orderId: number,
    transactionId: string | null,
    note: string,
  ): Promise<OrderRow | null> {
    const items = await this.items(orderId, tx);
    const to: OrderStatus = needsProcessing(items) ? 'processing' : 'completed';
    const set: Partial<typeof orders.$inferInsert> = { datePaid: new Date(), holdExpiresAt: null };
    if (transactionId) set.transactionId = transactionId;
    const row = await this.transition(tx, orderId, ['pending', 'on-hold', 'failed'], to, set);
    if (!row) return null;
    await this.addNote(tx, orderId, note);
    await this.grantDownloads(tx, snap, row, items);
    return row;
  }

  /** Download permissions, once per order (as WooCommerce grants them): limit × quantity, expiry at 00:00 UTC of the day. */
  async grantDownloads(tx: DbOrTx, snap: CatalogSnapshot, order: OrderRow, items: OrderItemRow[]): Promise<void> {
    const claimed = await tx
      .update(orders)
      .set({ downloadsGranted: true })
      .where(and(eq(orders.id, order.id), eq(orders.downloadsGranted, false)))
      .returning({ id: orders.id });
    if (!claimed.length) return;
    const base = order.dateCompleted ?? new Date();
    for (const item of items) {
      if (!item.downloadable) continue;
      const product = snap.productsById.get(item.productId);
      if (!product) continue;
      for (const d of product.downloads) {
        let accessExpires: Date | null = null;
        if (product.downloadExpiry) {
          accessExpires = new Date(base.getTime() + product.downloadExpiry * 86_400_000);
          accessExpires.setUTCHours(0, 0, 0, 0);
        }
        await tx
          .insert(downloadPermissions)
          .values({
            orderId: order.id,
            productId: product.id,
            downloadId: d.id,
            downloadsRemaining: product.downloadLimit ? product.downloadLimit * item.quantity : null,
            accessExpires,
          })
          .onConflictDoNothing();
      }
    }
  }

  /**
   * Cancel an order that is still in one of `from` (default pending): its stock goes back and its
   * coupon uses are released. True when this call cancelled it.
   */
  async cancel(tx: DbOrTx, orderId: number, note: string, from: OrderStatus[] = ['pending']): Promise<boolean> {
    const row = await this.transition(tx, orderId, from, 'cancelled', { holdExpiresAt: null });
    if (!row) return false;
    await this.releaseStockAndCoupons(tx, row);
    await this.addNote(tx, orderId, note);
    return true;
  }

  private async releaseStockAndCoupons(tx: DbOrTx, row: OrderRow): Promise<void> {
    if (row.stockReduced) {
      const items = await this.items(row.id, tx);
      await restoreStock(
        tx,
        items.map((i) => ({ productId: i.productId, variationId: i.variationId, quantity: i.stockReduced })),
      );
      await tx.update(orders).set({ stockReduced: false }).where(eq(orders.id, row.id));
      this.createdItems.get(tx)?.delete(row.id);
      await tx.update(orderItems).set({ stockReduced: 0 }).where(eq(orderItems.orderId, row.id));
    }
    await this.coupons.releaseUsage(tx, row.id);
  }

  /** Mark a pending order failed (declined payment): stock and coupon uses go back, as on cancel. */
  async fail(tx: DbOrTx, orderId: number, note: string): Promise<boolean> {
    const row = await this.transition(tx, orderId, ['pending', 'on-hold'], 'failed', { holdExpiresAt: null });
    if (!row) return false;
    await this.releaseStockAndCoupons(tx, row);
    await this.addNote(tx, orderId, note);
    return true;
  }

  /** A refunded payment: the order becomes refunded (stock is not restocked automatically, as WooCommerce). */
  async refund(tx: DbOrTx, orderId: number, note: string): Promise<boolean> {
    const row = await this.transition(tx, orderId, ['processing', 'completed', 'on-hold'], 'refunded');
    if (!row) return false;
    await tx.delete(downloadPermissions).where(eq(downloadPermissions.orderId, orderId));
    await this.addNote(tx, orderId, note);
    return true;
  }

  /**
   * The hold-stock sweeper: cancel unpaid pending orders whose hold time is over. Safe with several
   * processes: each order is cancelled by one conditional UPDATE. Returns the ids this call cancelled.
   */
  async cancelExpiredUnpaid(now = new Date()): Promise<number[]> {
    const due = await this.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.status, 'pending'), lt(orders.holdExpiresAt, now)))
      .orderBy(asc(orders.id))
      .limit(200);
    const cancelled: number[] = [];
    for (const { id } of due) {
      const done = await this.db.transaction((tx) =>
        this.cancel(tx, id, 'Unpaid order cancelled - time limit reached.'),
      );
      if (done) cancelled.push(id);
    }
    if (cancelled.length) this.catalog.invalidate();
    return cancelled;
  }

  /** Pending crypto orders with a payment account: what the KDA watcher polls. */
  async listOpenCrypto(
    currency: string,
  ): Promise<{ id: number; paymentAddress: string; cryptoAmount: string; paymentExpiresAt: Date }[]> {
    const rows = await this.db
      .select({
        id: orders.id,
        paymentAddress: orders.paymentAddress,
        cryptoAmount: orders.cryptoAmount,
        paymentExpiresAt: orders.paymentExpiresAt,
      })
      .from(orders)
      .where(
        and(
          eq(orders.status, 'pending'),
          eq(orders.paymentCurrency, currency),
          sql`${orders.paymentAddress} is not null`,
        ),
      )
      .orderBy(asc(orders.id))
      .limit(1000);
    return rows.filter((r) => r.paymentAddress && r.cryptoAmount && r.paymentExpiresAt) as {
      id: number;
      paymentAddress: string;
      cryptoAmount: string;
      paymentExpiresAt: Date;
    }[];
  }

  /**
   * Amounts seen on chain for a pending crypto order (only while it is pending: a late poll of another
   * process cannot overwrite the final amounts of a paid or cancelled order).
   */
  async recordCryptoProgress(tx: DbOrTx, orderId: number, unconfirmed: string, confirmed: string): Promise<void> {
    await tx
      .update(orders)
      .set({ receivedUnconfirmed: unconfirmed, receivedConfirmed: confirmed, dateModified: new Date() })
      .where(
        and(
          eq(orders.id, orderId),
          eq(orders.status, 'pending'),
          sql`(${orders.receivedUnconfirmed} is distinct from ${unconfirmed} or ${orders.receivedConfirmed} is distinct from ${confirmed})`,
        ),
      );
  }

  async update(tx: DbOrTx, orderId: number, set: Partial<typeof orders.$inferInsert>): Promise<void> {
    await tx
      .update(orders)
      .set({ ...set, dateModified: new Date() })
      .where(eq(orders.id, orderId));
  }
}
