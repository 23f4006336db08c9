// Coupon arithmetic in integer cents: properties that must hold for any cart.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeDiscounts,
  emailAllowed,
  type CouponModel,
  type DiscountLine,
} from '../../src/server/coupons/discounts.ts';
import { taxOf } from '../../src/server/tax/rates.ts';

const coupon = (c: Partial<CouponModel>): CouponModel => ({
  id: 1,
  code: 'c',
  description: '',
  discountType: 'percent',
  amountCents: 1000,
  expiresAt: null,
  usageLimit: null,
  usageLimitPerUser: null,
  usageCount: 0,
  minimumCents: null,
  maximumCents: null,
  individualUse: false,
  freeShipping: false,
  excludeSaleItems: false,
  productSlugs: [],
  excludedProductSlugs: [],
  categorySlugs: [],
  excludedCategorySlugs: [],
  emailRestrictions: [],
  ...c,
});
const linesArb = fc
  .array(fc.record({ unit: fc.integer({ min: 1, max: 100_000 }), quantity: fc.integer({ min: 1, max: 20 }) }), {
    minLength: 1,
    maxLength: 8,
  })
  .map((xs) =>
    xs.map(
      (x, i): DiscountLine => ({
        key: `k${i}`,
        name: `P${i}`,
        quantity: x.quantity,
        subtotalCents: x.unit * x.quantity,
        productSlug: `p${i}`,
        categorySlugs: [],
        categoryNames: {},
        onSale: false,
      }),
    ),
  );
const total = (m: Map<string, number>) => [...m.values()].reduce((s, v) => s + v, 0);

describe('computeDiscounts', () => {
  it('fixed_cart gives exactly min(amount, cart) in whole cents, never more than a line', () => {
    fc.assert(
      fc.property(linesArb, fc.integer({ min: 0, max: 2_000_000 }), (lines, amount) => {
        const d = computeDiscounts([coupon({ discountType: 'fixed_cart', amountCents: amount })], lines);
        const cart = lines.reduce((s, l) => s + l.subtotalCents, 0);
        expect(total(d.perLine)).toBe(Math.min(amount, cart));
        for (const l of lines) expect(d.perLine.get(l.key)!).toBeLessThanOrEqual(l.subtotalCents);
        for (const v of d.perLine.values()) expect(Number.isInteger(v)).toBe(true);
      }),
    );
  });

  it('percent gives the rounded percentage of the eligible total', () => {
    fc.assert(
      fc.property(linesArb, fc.integer({ min: 0, max: 10_000 }), (lines, hundredths) => {
        const d = computeDiscounts([coupon({ discountType: 'percent', amountCents: hundredths })], lines);
        const cart = lines.reduce((s, l) => s + l.subtotalCents, 0);
        expect(total(d.perLine)).toBe(Math.min(cart, Math.round((cart * hundredths) / 10000)));
      }),
    );
  });

  it('stacked coupons never take a line below zero', () => {
    fc.assert(
      fc.property(linesArb, (lines) => {
        const d = computeDiscounts(
          [
            coupon({ code: 'a', discountType: 'percent', amountCents: 9000 }),
            coupon({ code: 'b', discountType: 'fixed_product', amountCents: 50_000 }),
            coupon({ code: 'c', discountType: 'fixed_cart', amountCents: 10_000_000 }),
          ],
          lines,
        );
        for (const l of lines) expect(d.perLine.get(l.key)!).toBeLessThanOrEqual(l.subtotalCents);
      }),
    );
  });
});

describe('tax and e-mail rules', () => {
  it('rounds tax half up to a cent', () => {
    expect(taxOf(14970, { country: 'DE', basisPoints: 1900, label: 'VAT' })).toBe(2844); // 28.443
    expect(taxOf(50, { country: 'DE', basisPoints: 1000, label: 'VAT' })).toBe(5);
    expect(taxOf(25, { country: 'DE', basisPoints: 1000, label: 'VAT' })).toBe(3); // 2.5 → 3
    expect(taxOf(1000, null)).toBe(0);
  });

  it('matches e-mail restrictions exactly or with wildcards, case-insensitively', () => {
    expect(emailAllowed([], 'a@b.c')).toBe(true);
    expect(emailAllowed(['*@meshfront.example.com'], 'Ada@Meshfront.Example.com')).toBe(true);
    expect(emailAllowed(['*@meshfront.example.com'], 'ada@meshfront.example.com.evil.org')).toBe(false);
    expect(emailAllowed(['ada@example.com'], 'bob@example.com')).toBe(false);
  });
});
