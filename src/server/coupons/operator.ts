/**
 * Coupon administration for store operators: list with usage, create, edit, expire. Amounts are integer
 * cents (percent coupons: hundredths of a percent, 10% = 1000), codes are stored lower-case as WooCommerce
 * does. Usage counts come from checkout (recordUsage) and are never edited here.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/connection.ts';
import { couponUsages, coupons } from './tables.ts';

export type CouponRow = typeof coupons.$inferSelect;

export class CouponInputError extends Error {
  override name = 'CouponInputError';
  constructor(
    message: string,
    readonly code: 'BAD_USER_INPUT' | 'NOT_FOUND' = 'BAD_USER_INPUT',
  ) {
    super(message);
  }
}

const slugList = z
  .array(
    z
      .string()
      .trim()
      .toLowerCase()
      .regex(
        /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
        'Product and category restrictions are slugs (lower-case letters, digits, hyphens)',
      ),
  )
  .max(200);
const cents = (what: string) =>
  z
    .number()
    .int(`${what} must be a whole number of cents`)
    .min(0, `${what} cannot be negative`)
    .max(100_000_000, `${what} is too large`);

export const couponInputSchema = z
  .object({
    code: z
      .string()
      .trim()
      .toLowerCase()
      .min(1, 'A coupon needs a code')
      .max(50, 'The code is too long (at most 50 characters)')
      .regex(/^[a-z0-9][a-z0-9_-]*$/, 'The code may contain letters, digits, hyphens and underscores only'),
    description: z.string().max(1000, 'The description is too long'),
    discountType: z.enum(['percent', 'fixed_cart', 'fixed_product'], {
      message: 'Discount type must be percent, fixed_cart or fixed_product',
    }),
    amountCents: cents('The amount'),
    expiresAt: z
      .string()
      .refine((s) => !Number.isNaN(Date.parse(s)), 'The expiry must be a date (YYYY-MM-DD) or date-time')
      .transform((s) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s))
      .nullable(),
    usageLimit: z
      .number()
      .int()
      .min(1, 'A usage limit must be at least 1 (leave it empty for unlimited)')
      .max(10_000_000)
      .nullable(),
    usageLimitPerUser: z
      .number()
      .int()
      .min(1, 'A per-customer limit must be at least 1 (leave it empty for unlimited)')
      .max(10_000_000)
      .nullable(),
    minimumCents: cents('The minimum spend').nullable(),
    maximumCents: cents('The maximum spend').nullable(),
    individualUse: z.boolean(),
    freeShipping: z.boolean(),
    excludeSaleItems: z.boolean(),
    productSlugs: slugList,
    excludedProductSlugs: slugList,
    categorySlugs: slugList,
    excludedCategorySlugs: slugList,
    emailRestrictions: z
      .array(
        z
          .string()
          .trim()
          .toLowerCase()
          .regex(/^[^\s@]+@[^\s@]+$/, 'E-mail restrictions are addresses, optionally with * (e.g. *@example.com)'),
      )
      .max(200),
  })
  .partial();

export type CouponInput = z.input<typeof couponInputSchema>;

function parse(input: unknown) {
  const r = couponInputSchema.safeParse(input ?? {});
  if (!r.success) throw new CouponInputError([...new Set(r.error.issues.map((i) => i.message))].join(' '));
  const c = r.data;
  if (c.discountType === 'percent' && c.amountCents !== undefined && c.amountCents > 10_000)
    throw new CouponInputError('A percent coupon cannot take more than 100% (amount 10000).');
  if (c.minimumCents != null && c.maximumCents != null && c.minimumCents > c.maximumCents)
    throw new CouponInputError('The minimum spend must not be above the maximum spend.');
  return Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) as typeof c;
}

export class CouponOperator {
  constructor(private readonly db: Database) {}

  async list(filter: {
    search?: string | null;
    limit: number;
    offset: number;
  }): Promise<{ total: number; rows: CouponRow[] }> {
    const q = filter.search?.trim().toLowerCase();
    const where = q ? sql`${coupons.code} like ${`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined;
    const [c] = await this.db.select({ n: sql<number>`count(*)::int` }).from(coupons).where(where);
    const rows = await this.db
      .select()
      .from(coupons)
      .where(where)
      .orderBy(asc(coupons.code))
      .limit(filter.limit)
      .offset(filter.offset);
    return { total: Number(c?.n ?? 0), rows };
  }

  async get(id: number): Promise<CouponRow | null> {
    const [row] = await this.db.select().from(coupons).where(eq(coupons.id, id));
    return row ?? null;
  }

  async getByCode(code: string): Promise<CouponRow | null> {
    const [row] = await this.db.select().from(coupons).where(eq(coupons.code, code.trim().toLowerCase()));
    return row ?? null;
  }

  /** The orders that used a coupon, newest first (one entry per order). */
  async usages(couponId: number, limit = 100): Promise<{ orderId: number; customerKey: string; usedAt: Date }[]> {
    const rows = await this.db
      .select({
        orderId: couponUsages.orderId,
        customerKey: sql<string>`min(${couponUsages.customerKey})`,
        usedAt: sql<Date>`min(${couponUsages.createdAt})`,
      })
      .from(couponUsages)
      .where(eq(couponUsages.couponId, couponId))
      .groupBy(couponUsages.orderId)
      .orderBy(desc(couponUsages.orderId))
      .limit(limit);
    return rows.map((r) => ({ orderId: r.orderId, customerKey: r.customerKey, usedAt: new Date(r.usedAt) }));
  }

  async create(input: CouponInput): Promise<CouponRow> {
    const c = parse(input);
    if (!c.code) throw new CouponInputError('A coupon needs a code.');
    if (c.amountCents === undefined) throw new CouponInputError('A coupon needs an amount.');
    if (await this.getByCode(c.code)) throw new CouponInputError(`A coupon with the code "${c.code}" exists already.`);
    const [row] = await this.db
      .insert(coupons)
      .values({ discountType: 'fixed_cart', ...c, code: c.code, amountCents: c.amountCents })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new CouponInputError(`A coupon with the code "${c.code}" exists already.`);
    return row;
  }

  async update(id: number, input: CouponInput): Promise<CouponRow> {
    const current = await this.get(id);
    if (!current) throw new CouponInputError(`There is no coupon with id ${id}.`, 'NOT_FOUND');
    const c = parse(input);
    const type = c.discountType ?? current.discountType;
    if (type === 'percent' && (c.amountCents ?? current.amountCents) > 10_000)
      throw new CouponInputError('A percent coupon cannot take more than 100% (amount 10000).');
    if (c.code && c.code !== current.code && (await this.getByCode(c.code)))
      throw new CouponInputError(`A coupon with the code "${c.code}" exists already.`);
    const [row] = await this.db.update(coupons).set(c).where(eq(coupons.id, id)).returning();
    return row!;
  }

  /** Expires a coupon now (it stays, with its usage, and can be given a new expiry later). */
  async expire(id: number, now = new Date()): Promise<CouponRow> {
    const [row] = await this.db
      .update(coupons)
      .set({ expiresAt: now })
      .where(and(eq(coupons.id, id)))
      .returning();
    if (!row) throw new CouponInputError(`There is no coupon with id ${id}.`, 'NOT_FOUND');
    return row;
  }
}
