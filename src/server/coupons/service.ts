/**
 * The coupon service: coupons by code, their usage limits (global and per customer) and the seed.
 * Checkout records a usage inside its own transaction (`recordUsage`), so a failed checkout leaves the
 * counts untouched and two checkouts can never both take a coupon's last use.
 */
import { and, count, eq, sql } from 'drizzle-orm';
import { parseMoney } from '../catalog/money.ts';
import { loadSeedCatalog } from '../catalog/seed-loader.ts';
import type { SeedCoupon } from '../catalog/seed-format.ts';
import type { Database, DbOrTx } from '../db/connection.ts';
import { CouponError, couponMessages, emailAllowed, type CouponModel } from './discounts.ts';
import { couponUsages, coupons } from './tables.ts';

type Row = typeof coupons.$inferSelect;

function toModel(r: Row): CouponModel {
  return {
    id: r.id,
    code: r.code,
    description: r.description,
    discountType: r.discountType as CouponModel['discountType'],
    amountCents: r.amountCents,
    expiresAt: r.expiresAt,
    usageLimit: r.usageLimit,
    usageLimitPerUser: r.usageLimitPerUser,
    usageCount: r.usageCount,
    minimumCents: r.minimumCents,
    maximumCents: r.maximumCents,
    individualUse: r.individualUse,
    freeShipping: r.freeShipping,
    excludeSaleItems: r.excludeSaleItems,
    productSlugs: r.productSlugs,
    excludedProductSlugs: r.excludedProductSlugs,
    categorySlugs: r.categorySlugs,
    excludedCategorySlugs: r.excludedCategorySlugs,
    emailRestrictions: r.emailRestrictions,
  };
}

/** A seed coupon as a row. `expires` is a date: as in WooCommerce, the coupon expires at 00:00 (UTC) of that date. */
export function couponFromSeed(c: SeedCoupon): typeof coupons.$inferInsert {
  let expiresAt: Date | null = null;
  if (c.expires)
    expiresAt =
      c.expires.length === 10
        ? new Date(`${c.expires}T00:00:00Z`)
        : new Date(`${c.expires}${c.expires.length === 16 ? ':00' : ''}Z`);
  return {
    code: c.code.toLowerCase(),
    description: c.description,
    discountType: c.discountType,
    amountCents: parseMoney(c.amount),
    expiresAt,
    usageLimit: c.usageLimit ?? null,
    usageLimitPerUser: c.usageLimitPerUser ?? null,
    minimumCents: c.minimumAmount ? parseMoney(c.minimumAmount) : null,
    maximumCents: c.maximumAmount ? parseMoney(c.maximumAmount) : null,
    individualUse: c.individualUse,
    freeShipping: c.freeShipping,
    excludeSaleItems: c.excludeSaleItems,
    productSlugs: c.productSlugs,
    excludedProductSlugs: c.excludedProductSlugs,
    categorySlugs: c.categorySlugs,
    excludedCategorySlugs: c.excludedCategorySlugs,
    emailRestrictions: c.emailRestrictions,
  };
}

/** Keys a customer's coupon usages are counted under: the user (if logged in) and the billing e-mail. */
export function customerKeys(who: { userId?: string | null; email?: string | null }): string[] {
  const keys: string[] = [];
  if (who.userId) keys.push(`user:${who.userId}`);
  if (who.email) keys.push(`email:${who.email.trim().toLowerCase()}`);
  return keys;
}

export class CouponService {
  constructor(private readonly db: Database) {}

  async findByCode(code: string, db: DbOrTx = this.db): Promise<CouponModel | null> {
    const [row] = await db.select().from(coupons).where(eq(coupons.code, code.trim().toLowerCase()));
    return row ? toModel(row) : null;
  }

  async findByCodes(codes: string[], db: DbOrTx = this.db): Promise<CouponModel[]> {
    if (!codes.length) return [];
    const rows = await db
      .select()
      .from(coupons)
      .where(sql`${coupons.code} in ${codes.map((c) => c.toLowerCase())}`);
    const byCode = new Map(rows.map((r) => [r.code, toModel(r)]));
    return codes.map((c) => byCode.get(c.toLowerCase())).filter((c): c is CouponModel => !!c);
  }

  /** Create or replace coupons (by code). */
  async upsert(list: SeedCoupon[], db: DbOrTx = this.db): Promise<number> {
    for (const c of list) {
      const row = couponFromSeed(c);
      const { code: _code, ...rest } = row;
      await db.insert(coupons).values(row).onConflictDoUpdate({ target: coupons.code, set: rest });
    }
    return list.length;
  }

  async isEmpty(): Promise<boolean> {
    const [r] = await this.db.select({ n: count() }).from(coupons);
    return Number(r?.n ?? 0) === 0;
  }

  /** Load content/catalog/coupons.json (or a test catalog's) into the database. */
  async seedFromDirectory(dir: string): Promise<number> {
    const catalog = loadSeedCatalog(dir, { checkFiles: false });
    return this.upsert(catalog.coupons);
  }

  /** Usage checks that need the database (global limit, then per customer). Throws CouponError. */
  async checkUsage(
    c: CouponModel,
    who: { userId?: string | null; email?: string | null },
    db: DbOrTx = this.db,
  ): Promise<void> {
    if (c.usageLimit !== null && c.usageCount >= c.usageLimit) throw new CouponError(couponMessages.usageLimit(c.code));
    const keys = customerKeys(who);
    if (c.usageLimitPerUser !== null && keys.length) {
      const [r] = await db
        .select({ n: sql<number>`count(distinct ${couponUsages.orderId})` })
        .from(couponUsages)
        .where(and(eq(couponUsages.couponId, c.id), sql`${couponUsages.customerKey} in ${keys}`));
      if (Number(r?.n ?? 0) >= c.usageLimitPerUser) throw new CouponError(couponMessages.usageLimit(c.code));
    }
  }

  /** Checkout's checks on the billing e-mail: restrictions and per-customer usage. */
  async checkForCustomer(
    c: CouponModel,
    who: { userId?: string | null; email: string },
    db: DbOrTx = this.db,
  ): Promise<void> {
    if (!emailAllowed(c.emailRestrictions, who.email)) throw new CouponError(couponMessages.email(c.code));
    await this.checkUsage(c, who, db);
  }

  /**
   * Take one use of each coupon for an order, inside the checkout transaction. The global count is a
   * conditional UPDATE (never over the limit under concurrency); the per-customer count is checked under
   * a transaction lock on (coupon, customer).
   */
  async recordUsage(
    tx: DbOrTx,
    list: CouponModel[],
    orderId: number,
    who: { userId?: string | null; email: string },
  ): Promise<void> {
    const keys = customerKeys(who);
    for (const c of list) {
      if (c.usageLimitPerUser !== null) {
        for (const k of keys)
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`coupon:${c.id}:${k}`}, 0))`);
        const [r] = await tx
          .select({ n: sql<number>`count(distinct ${couponUsages.orderId})` })
          .from(couponUsages)
          .where(and(eq(couponUsages.couponId, c.id), sql`${couponUsages.customerKey} in ${keys}`));
        if (Number(r?.n ?? 0) >= c.usageLimitPerUser) throw new CouponError(couponMessages.usageLimit(c.code));
      }
      const updated = await tx
        .update(coupons)
        .set({ usageCount: sql`${coupons.usageCount} + 1` })
        .where(
          and(
            eq(coupons.id, c.id),
            sql`(${coupons.usageLimit} is null or ${coupons.usageCount} < ${coupons.usageLimit})`,
          ),
        )
        .returning({ id: coupons.id });
      if (!updated.length) throw new CouponError(couponMessages.usageLimit(c.code));
      for (const k of keys.length ? keys : [`order:${orderId}`]) {
        // One row per key, so a later order is counted both by the user and by the billing e-mail.
        await tx.insert(couponUsages).values({ couponId: c.id, orderId, customerKey: k }).onConflictDoNothing();
      }
    }
  }

  /** Give back the uses an order took (cancelled order). */
  async releaseUsage(tx: DbOrTx, orderId: number): Promise<void> {
    const rows = await tx
      .delete(couponUsages)
      .where(eq(couponUsages.orderId, orderId))
      .returning({ couponId: couponUsages.couponId });
    for (const couponId of new Set(rows.map((r) => r.couponId))) {
      await tx
        .update(coupons)
        .set({ usageCount: sql`greatest(${coupons.usageCount} - 1, 0)` })
        .where(eq(coupons.id, couponId));
    }
  }
}
