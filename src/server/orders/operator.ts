/**
 * Order reads and writes for store operators: lists filtered by status, date and customer, the day's
 * figures for the dashboard, status moves an operator makes (complete, on hold, back to processing) and
 * the refund records. Status moves are conditional UPDATEs through OrderService.transition, so an
 * operator racing a webhook or the sweeper never applies a move twice. Only this domain touches the
 * order tables.
 */
import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/connection.ts';
import { orderRefunds } from './refund-tables.ts';
import type { OrderRow, OrderService, OrderStatus } from './service.ts';
import { orders } from './tables.ts';

export type RefundRow = typeof orderRefunds.$inferSelect;

export const ORDER_STATUSES: OrderStatus[] = [
  'pending',
  'processing',
  'on-hold',
  'completed',
  'cancelled',
  'refunded',
  'failed',
];
/** Statuses whose orders count as sales (paid or being fulfilled). */
export const SALE_STATUSES: OrderStatus[] = ['processing', 'on-hold', 'completed'];

export type OrderListFilter = {
  statuses?: OrderStatus[];
  /** Inclusive lower bound on the order date. */
  from?: Date | null;
  /** Exclusive upper bound on the order date. */
  to?: Date | null;
  /** A user id (exact), or part of the billing e-mail or name (case-insensitive). */
  customer?: string | null;
  limit: number;
  offset: number;
};

export class OrderOperator {
  constructor(
    private readonly db: Database,
    readonly orders: OrderService,
  ) {}

  private where(f: Omit<OrderListFilter, 'limit' | 'offset'>): SQL | undefined {
    const parts: SQL[] = [];
    if (f.statuses?.length) parts.push(inArray(orders.status, f.statuses));
    if (f.from) parts.push(gte(orders.dateCreated, f.from));
    if (f.to) parts.push(lt(orders.dateCreated, f.to));
    const q = f.customer?.trim().toLowerCase();
    if (q) {
      // Escape LIKE wildcards: an operator searching "a_b" means the characters, not a pattern.
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      parts.push(
        sql`(${orders.customerId} = ${q} or lower(${orders.billing}->>'email') like ${like} or lower(concat_ws(' ', ${orders.billing}->>'firstName', ${orders.billing}->>'lastName')) like ${like})`,
      );
    }
    return parts.length ? and(...parts) : undefined;
  }

  /** Newest first, with the total count for paging. */
  async list(f: OrderListFilter): Promise<{ total: number; rows: OrderRow[] }> {
    const where = this.where(f);
    const [c] = await this.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(where);
    const rows = await this.db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.dateCreated), desc(orders.id))
      .limit(f.limit)
      .offset(f.offset);
    return { total: Number(c?.n ?? 0), rows };
  }

  /** Orders of a period that count as sales, their total and what was refunded of them. */
  async salesBetween(from: Date, to: Date): Promise<{ orders: number; grossCents: number; refundedCents: number }> {
    const [r] = await this.db
      .select({ n: sql<number>`count(*)::int`, gross: sql<number>`coalesce(sum(${orders.totalCents}), 0)::int` })
      .from(orders)
      .where(
        and(
          gte(orders.dateCreated, from),
          lt(orders.dateCreated, to),
          inArray(orders.status, [...SALE_STATUSES, 'refunded']),
        ),
      );
    const [refunds] = await this.db
      .select({ cents: sql<number>`coalesce(sum(${orderRefunds.amountCents}), 0)::int` })
      .from(orderRefunds)
      .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
      .where(and(gte(orders.dateCreated, from), lt(orders.dateCreated, to), eq(orderRefunds.status, 'succeeded')));
    return { orders: Number(r?.n ?? 0), grossCents: Number(r?.gross ?? 0), refundedCents: Number(refunds?.cents ?? 0) };
  }

  async countByStatus(): Promise<Record<string, number>> {
    const rows = await this.db
      .select({ status: orders.status, n: sql<number>`count(*)::int` })
      .from(orders)
      .groupBy(orders.status);
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  /** Locks the order row for the rest of the transaction (refunds of one order run one at a time). */
  async lock(tx: DbOrTx, orderId: number): Promise<OrderRow | null> {
    const rows = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    return rows[0] ?? null;
  }

  // ---------- refunds ----------

  async refunds(orderId: number, db: DbOrTx = this.db): Promise<RefundRow[]> {
    return db.select().from(orderRefunds).where(eq(orderRefunds.orderId, orderId)).orderBy(asc(orderRefunds.id));
  }

  async refundByKey(key: string, db: DbOrTx = this.db): Promise<RefundRow | null> {
    const [row] = await db.select().from(orderRefunds).where(eq(orderRefunds.idempotencyKey, key));
    return row ?? null;
  }

  /** Cents refunded or being refunded (pending and succeeded rows): what is left to refund is total − this. */
  async refundedCents(orderId: number, db: DbOrTx = this.db): Promise<number> {
    const [r] = await db
      .select({ cents: sql<number>`coalesce(sum(${orderRefunds.amountCents}), 0)::int` })
      .from(orderRefunds)
      .where(and(eq(orderRefunds.orderId, orderId), inArray(orderRefunds.status, ['pending', 'succeeded'])));
    return Number(r?.cents ?? 0);
  }

  async insertRefund(
    tx: DbOrTx,
    row: Omit<typeof orderRefunds.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>,
  ): Promise<RefundRow> {
    const [r] = await tx.insert(orderRefunds).values(row).returning();
    return r!;
  }

  async updateRefund(
    id: number,
    set: Partial<Pick<RefundRow, 'status' | 'stripeRefundId' | 'error' | 'amountCents' | 'reason'>>,
    db: DbOrTx = this.db,
  ): Promise<RefundRow> {
    const [r] = await db
      .update(orderRefunds)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(orderRefunds.id, id))
      .returning();
    return r!;
  }

  async refundsTotal(orderIds: number[]): Promise<Map<number, number>> {
    if (!orderIds.length) return new Map();
    const rows = await this.db
      .select({ orderId: orderRefunds.orderId, cents: sql<number>`coalesce(sum(${orderRefunds.amountCents}), 0)::int` })
      .from(orderRefunds)
      .where(and(inArray(orderRefunds.orderId, orderIds), eq(orderRefunds.status, 'succeeded')))
      .groupBy(orderRefunds.orderId);
    return new Map(rows.map((r) => [r.orderId, Number(r.cents)]));
  }
}
