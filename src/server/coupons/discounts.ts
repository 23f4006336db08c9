/**
 * Coupon rules and discount arithmetic, as WooCommerce's WC_Discounts, in integer cents:
 *   percent        a percentage of each eligible line (computed on the line's price, floored per line,
 *                  the remaining cents of the rounded total handed out one by one);
 *   fixed_cart     one amount spread over the eligible lines in proportion to what is left of their price,
 *                  never more than that, leftover cents handed out one by one;
 *   fixed_product  an amount off each eligible unit, never below zero.
 * Pure functions: the coupon service adds the database checks (usage counts).
 */
import { text } from '../i18n/text.ts';
import { ShopperError } from '../i18n/shopper-error.ts';

export type CouponModel = {
  id: number;
  code: string;
  description: string;
  discountType: 'percent' | 'fixed_cart' | 'fixed_product';
  /** cents; for percent coupons hundredths of a percent (10% = 1000) */
  amountCents: number;
  expiresAt: Date | null;
  usageLimit: number | null;
  usageLimitPerUser: number | null;
  usageCount: number;
  minimumCents: number | null;
  maximumCents: number | null;
  individualUse: boolean;
  freeShipping: boolean;
  excludeSaleItems: boolean;
  productSlugs: string[];
  excludedProductSlugs: string[];
  categorySlugs: string[];
  excludedCategorySlugs: string[];
  emailRestrictions: string[];
};

/** What the coupon rules need to know about a cart line. */
export type DiscountLine = {
  key: string;
  name: string;
  quantity: number;
  /** line subtotal before discounts, excl. tax */
  subtotalCents: number;
  productSlug: string;
  /** the product's categories and their ancestors */
  categorySlugs: string[];
  categoryNames: Record<string, string>;
  onSale: boolean;
};

export class CouponError extends ShopperError {
  override name = 'CouponError';
}

/** The coupon refusals in WooCommerce's wording, translated where the answer is written. */
export const couponMessages = {
  notFound: (code: string) => text('coupon.notFound', { code }),
  expired: (code: string) => text('coupon.expired', { code }),
  usageLimit: (code: string) => text('coupon.usageLimit', { code }),
  minimum: (code: string, cents: number) => text('coupon.minimum', { code, amount: { cents } }),
  maximum: (code: string, cents: number) => text('coupon.maximum', { code, amount: { cents } }),
  notApplicable: (code: string) => text('coupon.notApplicable', { code }),
  saleItems: (code: string) => text('coupon.saleItems', { code }),
  excludedProducts: (code: string, names: string[]) =>
    text('coupon.excludedProducts', { code, names: names.join(', ') }),
  excludedCategories: (code: string, names: string[]) =>
    text('coupon.excludedCategories', { code, names: names.join(', ') }),
  individualUse: (code: string) => text('coupon.individualUse', { code }),
  alreadyApplied: (code: string) => text('coupon.alreadyApplied', { code }),
  email: (code: string) => text('coupon.email', { code }),
  empty: () => text('coupon.empty'),
};

/** Whether a line can be discounted by the coupon (product/category lists, exclusions, sale items). */
export function lineEligible(c: CouponModel, line: DiscountLine): boolean {
  if (c.productSlugs.length || c.categorySlugs.length) {
    const listed =
      c.productSlugs.includes(line.productSlug) || line.categorySlugs.some((s) => c.categorySlugs.includes(s));
    if (!listed) return false;
  }
  if (c.excludedProductSlugs.includes(line.productSlug)) return false;
  if (line.categorySlugs.some((s) => c.excludedCategorySlugs.includes(s))) return false;
  if (c.excludeSaleItems && line.onSale) return false;
  return true;
}

/**
 * The coupon's own rules against a cart (everything except usage counts, which need the database):
 * expiry, minimum/maximum spend, product/category restrictions, exclusions and sale items. Throws
 * CouponError with WooCommerce's message. The spend is `shownSubtotalCents`, the subtotal before discounts
 * as the shopper sees it (their destination's prices, with tax when the cart shows tax; cart/totals.ts),
 * as WooCommerce compares its displayed subtotal: the minimum the coupon names is the amount the shopper
 * reads in the cart.
 */
export function checkCouponRules(
  c: CouponModel,
  lines: DiscountLine[],
  shownSubtotalCents: number,
  now = new Date(),
): void {
  if (c.expiresAt && now.getTime() > c.expiresAt.getTime()) throw new CouponError(couponMessages.expired(c.code));
  const subtotal = shownSubtotalCents;
  if (c.minimumCents !== null && c.minimumCents > 0 && subtotal < c.minimumCents)
    throw new CouponError(couponMessages.minimum(c.code, c.minimumCents));
  if (c.maximumCents !== null && c.maximumCents > 0 && subtotal > c.maximumCents)
    throw new CouponError(couponMessages.maximum(c.code, c.maximumCents));
  const restricted = c.productSlugs.length > 0 || c.categorySlugs.length > 0;
  const listed = (l: DiscountLine) =>
    c.productSlugs.includes(l.productSlug) || l.categorySlugs.some((s) => c.categorySlugs.includes(s));
  if (restricted && !lines.some(listed)) throw new CouponError(couponMessages.notApplicable(c.code));
  if (c.discountType === 'fixed_cart') {
    // A cart coupon refuses a cart holding excluded items (WC_Discounts::validate_coupon_excluded_items).
    const excludedProducts = lines.filter((l) => c.excludedProductSlugs.includes(l.productSlug));
    if (excludedProducts.length)
      throw new CouponError(
        couponMessages.excludedProducts(
          c.code,
          excludedProducts.map((l) => l.name),
        ),
      );
    const excludedCats = [
      ...new Set(
        lines.flatMap((l) =>
          l.categorySlugs.filter((s) => c.excludedCategorySlugs.includes(s)).map((s) => l.categoryNames[s] ?? s),
        ),
      ),
    ];
    if (excludedCats.length) throw new CouponError(couponMessages.excludedCategories(c.code, excludedCats));
    if (c.excludeSaleItems && lines.some((l) => l.onSale)) throw new CouponError(couponMessages.saleItems(c.code));
  } else if (!lines.some((l) => lineEligible(c, l))) {
    const saleOnly = c.excludeSaleItems && lines.some((l) => lineEligible({ ...c, excludeSaleItems: false }, l));
    throw new CouponError(saleOnly ? couponMessages.saleItems(c.code) : couponMessages.notApplicable(c.code));
  }
}

export type DiscountResult = {
  /** line key → cents discounted from the line (all coupons) */
  perLine: Map<string, number>;
  /** coupon code → line key → cents */
  perCoupon: Map<string, Map<string, number>>;
};

/** Hand out `cents` one at a time over `keys` (in order) while each still has room. */
function spreadRemainder(
  cents: number,
  keys: string[],
  room: (k: string) => number,
  add: (k: string, c: number) => void,
): void {
  let left = cents;
  while (left > 0) {
    let progressed = false;
    for (const k of keys) {
      if (left === 0) break;
      if (room(k) > 0) {
        add(k, 1);
        left -= 1;
        progressed = true;
      }
    }
    if (!progressed) break;
  }
}

/**
 * Discounts of the applied coupons on the lines. Percent and fixed-product coupons go first, then
 * fixed-cart ones (as WooCommerce sorts them); no line is ever discounted below zero.
 */
export function computeDiscounts(couponsApplied: CouponModel[], lines: DiscountLine[]): DiscountResult {
  const perLine = new Map(lines.map((l) => [l.key, 0]));
  const perCoupon = new Map<string, Map<string, number>>();
  const remaining = (l: DiscountLine) => l.subtotalCents - perLine.get(l.key)!;
  const order = [...couponsApplied].sort(
    (a, b) => Number(a.discountType === 'fixed_cart') - Number(b.discountType === 'fixed_cart'),
  );
  for (const c of order) {
    const mine = new Map<string, number>();
    perCoupon.set(c.code, mine);
    const eligible = lines.filter((l) => lineEligible(c, l) && remaining(l) > 0);
    const add = (key: string, cents: number) => {
      perLine.set(key, perLine.get(key)! + cents);
      mine.set(key, (mine.get(key) ?? 0) + cents);
    };
    if (c.discountType === 'percent') {
      let given = 0;
      let base = 0;
      for (const l of eligible) {
        const d = Math.min(Number((BigInt(l.subtotalCents) * BigInt(c.amountCents)) / 10000n), remaining(l));
        base += l.subtotalCents;
        if (d > 0) add(l.key, d);
        given += d;
      }
      const target = Number((BigInt(base) * BigInt(c.amountCents) + 5000n) / 10000n);
      const byLine = new Map(lines.map((l) => [l.key, l]));
      spreadRemainder(
        target - given,
        eligible.map((l) => l.key),
        (k) => remaining(byLine.get(k)!),
        add,
      );
    } else if (c.discountType === 'fixed_product') {
      for (const l of eligible) {
        const d = Math.min(c.amountCents * l.quantity, remaining(l));
        if (d > 0) add(l.key, d);
      }
    } else {
      const pool = eligible.reduce((s, l) => s + remaining(l), 0);
      const amount = Math.min(c.amountCents, pool);
      if (amount <= 0) continue;
      let given = 0;
      const shares = eligible.map((l) => {
        const share = Number((BigInt(amount) * BigInt(remaining(l))) / BigInt(pool));
        return { l, share };
      });
      for (const { l, share } of shares) {
        if (share > 0) add(l.key, share);
        given += share;
      }
      const byLine = new Map(lines.map((l) => [l.key, l]));
      spreadRemainder(
        amount - given,
        eligible.map((l) => l.key),
        (k) => remaining(byLine.get(k)!),
        add,
      );
    }
  }
  return { perLine, perCoupon };
}

/** WooCommerce's e-mail restriction match: exact (case-insensitive) or with `*` wildcards. */
export function emailAllowed(restrictions: string[], email: string): boolean {
  if (!restrictions.length) return true;
  const e = email.trim().toLowerCase();
  return restrictions.some((r) => {
    const pattern = r.trim().toLowerCase();
    if (!pattern.includes('*')) return pattern === e;
    const re = new RegExp(
      '^' +
        pattern
          .split('*')
          .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*') +
        '$',
    );
    return re.test(e);
  });
}
