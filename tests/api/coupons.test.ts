// Coupons in the cart and at checkout: each discount type to the cent, and each rule with the
// contract's message (expiry, usage limits, minimum/maximum spend, individual use, product/category
// restrictions and exclusions, sale items, e-mail restrictions, free shipping).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from './harness.ts';
import { addCoupons, BILLING, CART, operation, productId, Shopper } from './shop-helpers.ts';

let t: TestEngine;
let ids: Record<string, number>;
beforeAll(async () => {
  t = await startTestEngine();
  ids = {};
  for (const slug of [
    'bravo-outdoor-gateway',
    'omni-antenna',
    'mesh-os',
    'catalog-only-sticker',
    'search-only-adapter',
  ])
    ids[slug] = await productId(t, slug);
  await addCoupons(t, [
    { code: 'fixed5', description: 'Five off', discountType: 'fixed_cart', amount: '5' },
    { code: 'prod3', discountType: 'fixed_product', amount: '3.00', productSlugs: ['omni-antenna'] },
    { code: 'old', discountType: 'percent', amount: '10', expires: '2020-01-31' },
    { code: 'future', discountType: 'percent', amount: '10', expires: '2099-12-31' },
    { code: 'min100', discountType: 'percent', amount: '10', minimumAmount: '100.00' },
    { code: 'max50', discountType: 'percent', amount: '10', maximumAmount: '50' },
    { code: 'solo', discountType: 'percent', amount: '5', individualUse: true },
    { code: 'antennas20', discountType: 'percent', amount: '20', categorySlugs: ['antennas'] },
    { code: 'gateways-only', discountType: 'fixed_cart', amount: '10', categorySlugs: ['gateways'] },
    { code: 'not-bravo', discountType: 'fixed_cart', amount: '10', excludedProductSlugs: ['bravo-outdoor-gateway'] },
    { code: 'not-bravo-pct', discountType: 'percent', amount: '50', excludedProductSlugs: ['bravo-outdoor-gateway'] },
    { code: 'nosale', discountType: 'percent', amount: '10', excludeSaleItems: true },
    { code: 'shipfree', discountType: 'fixed_cart', amount: '0', freeShipping: true },
    { code: 'staff', discountType: 'percent', amount: '30', emailRestrictions: ['*@meshfront.example.com'] },
    { code: 'once', discountType: 'fixed_cart', amount: '1', usageLimit: 1 },
    { code: 'once-each', discountType: 'fixed_cart', amount: '1', usageLimitPerUser: 1 },
    { code: 'half', discountType: 'percent', amount: '12.5' },
  ]);
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const ADD = operation('addToCart');
const APPLY = operation('applyCoupon');
const REMOVE = operation('removeCoupons');
const CHECKOUT = operation('Checkout');
const SHIPPING_COUNTRY = operation('ChangeShippingCounty');

async function shopper(lines: [string, number][]): Promise<Shopper> {
  const s = new Shopper(t);
  for (const [slug, quantity] of lines) await s.ok(ADD, { productId: ids[slug], quantity });
  return s;
}

describe('discount types, to the cent', () => {
  it('percent: a share of each eligible line, rounded total (10% of 3 × €49.90 = €14.97), also with a fractional percentage', async () => {
    const s = await shopper([['omni-antenna', 3]]);
    // Prices include VAT, so the coupon takes €14.97 off the gross price; WooGraphQL's discountAmount is
    // without tax (12.58) and discountTax the VAT in it (2.39).
    const d = await s.ok(APPLY, { code: 'welcome10' });
    expect(d.applyCoupon.applied).toMatchObject({
      code: 'welcome10',
      description: 'Ten percent off',
      discountAmount: '€12.58',
    });
    expect(d.applyCoupon.cart.appliedCoupons[0].discountAmountWithTax).toBe('€14.97');
    const c = (await s.ok(CART)).cart;
    expect(c.rawDiscountTotal).toBe('12.58'); // 125.80 − 113.22 without tax
    expect(c.rawTotalTax).toBe('21.51'); // (149.70 − 14.97) × 19/119 = 21.512
    expect(c.rawTotal).toBe('134.73');
    expect(c.appliedCoupons[0].rawDiscountTax).toBe('2.39'); // 23.90 − 21.51
    await s.ok(REMOVE, { codes: ['welcome10'] });
    await s.ok(APPLY, { code: 'half' });
    const half = (await s.ok(CART)).cart;
    // 12.5% of 149.70 = 18.7125 → 18.71 off the gross price: 15.72 without tax + 2.99 VAT.
    expect(half.rawDiscountTotal).toBe('15.72');
    expect(half.appliedCoupons[0].rawDiscountTax).toBe('2.99');
    expect(half.rawTotal).toBe('130.99');
  });

  it('fixed_cart: one amount spread over the lines in proportion, never more than the cart', async () => {
    const s = await shopper([
      ['bravo-outdoor-gateway', 1],
      ['omni-antenna', 1],
    ]);
    await s.ok(APPLY, { code: 'fixed5' });
    const c = (await s.ok(CART)).cart;
    // €5.00 off the gross prices: 4.20 without tax + 0.80 VAT.
    expect(c.rawDiscountTotal).toBe('4.2');
    expect(c.appliedCoupons[0].rawDiscountTax).toBe('0.8');
    const lines = Object.fromEntries(c.contents.nodes.map((n: any) => [n.product.node.slug, n]));
    // 500 × 449/498.90 = 449.99 → 449 (+1 leftover cent), 500 × 49.90/498.90 = 50.01 → 50
    expect(lines['bravo-outdoor-gateway'].rawTax).toBe('70.97'); // (449.00 − 4.50) × 19/119 = 70.971
    expect(lines['omni-antenna'].rawTax).toBe('7.89'); // (49.90 − 0.50) × 19/119 = 7.887
    expect(c.rawTotal).toBe('493.9'); // 498.90 − 5
    const small = await shopper([['catalog-only-sticker', 1]]);
    await small.ok(APPLY, { code: 'fixed5' });
    const capped = (await small.ok(CART)).cart; // never more than the €2.50 the sticker costs
    expect(capped.rawDiscountTotal).toBe('2.1');
    expect(capped.appliedCoupons[0].rawDiscountTax).toBe('0.4');
    expect(capped.rawTotal).toBe('4.9'); // the sticker free; the flat rate €4.12 + 0.78 VAT
  });

  it('fixed_product: an amount off each eligible unit', async () => {
    const s = await shopper([
      ['omni-antenna', 3],
      ['bravo-outdoor-gateway', 1],
    ]);
    await s.ok(APPLY, { code: 'prod3' });
    const c = (await s.ok(CART)).cart;
    // 3 × €3.00 off the antennas' gross price: 7.56 without tax + 1.44 VAT.
    expect(c.rawDiscountTotal).toBe('7.56');
    expect(c.appliedCoupons[0].rawDiscountTax).toBe('1.44');
  });

  it('free shipping: the free-shipping rate becomes available and chosen', async () => {
    const s = await shopper([['catalog-only-sticker', 2]]);
    expect((await s.ok(CART)).cart.chosenShippingMethods).toEqual(['flat_rate:1']);
    await s.ok(APPLY, { code: 'shipfree' });
    const c = (await s.ok(CART)).cart;
    expect(c.chosenShippingMethods).toEqual(['free_shipping:2']);
    expect(c.rawShippingTotal).toBe('0');
    await s.ok(REMOVE, { codes: ['shipfree'] });
    expect((await s.ok(CART)).cart.chosenShippingMethods).toEqual(['flat_rate:1']);
  });
});

describe('rules and messages', () => {
  it('unknown, expired, minimum and maximum spend', async () => {
    const s = await shopper([['omni-antenna', 1]]);
    expect(await s.fails(APPLY, { code: 'nope' })).toBe(
      'Coupon &quot;nope&quot; cannot be applied because it does not exist.',
    );
    expect(await s.fails(APPLY, { code: 'old' })).toBe('Coupon &quot;old&quot; has expired.');
    expect((await s.ok(APPLY, { code: 'future' })).applyCoupon.applied.code).toBe('future');
    expect(await s.fails(APPLY, { code: 'min100' })).toBe(
      'The minimum spend for coupon &quot;min100&quot; is €100.00.',
    );
    const big = await shopper([['bravo-outdoor-gateway', 1]]);
    expect(await big.fails(APPLY, { code: 'max50' })).toBe('The maximum spend for coupon &quot;max50&quot; is €50.00.');
    expect((await big.ok(APPLY, { code: 'min100' })).applyCoupon.applied.code).toBe('min100');
    expect(await big.fails(APPLY, { code: '' })).toBe('Please enter a coupon code.');
  });

  it('applying twice, case-insensitively, and removing (one code at a time)', async () => {
    const s = await shopper([['omni-antenna', 1]]);
    await s.ok(APPLY, { code: 'welcome10' });
    expect(await s.fails(APPLY, { code: 'welcome10' })).toBe('This coupon has already been applied to the cart');
    expect(await s.fails(APPLY, { code: 'WELCOME10' })).toBe('Coupon code &quot;welcome10&quot; already applied!');
    expect(await s.fails(REMOVE, { codes: ['fixed5'] })).toBe('This coupon has not been applied to the cart.');
    expect(await s.fails(REMOVE, { codes: [] })).toBe('No coupon codes provided');
    const d = await s.ok(REMOVE, { codes: ['welcome10'] });
    expect(d.removeCoupons.cart.appliedCoupons).toBeNull();
    expect(d.removeCoupons.cart.rawDiscountTotal).toBe('0');
  });

  it('individual use: replaces the others, and nothing can join it', async () => {
    const s = await shopper([['omni-antenna', 2]]);
    await s.ok(APPLY, { code: 'welcome10' });
    await s.ok(APPLY, { code: 'fixed5' });
    const d = await s.ok(APPLY, { code: 'solo' });
    expect(d.applyCoupon.cart.appliedCoupons.map((c: any) => c.code)).toEqual(['solo']);
    expect(await s.fails(APPLY, { code: 'welcome10' })).toBe(
      'Sorry, coupon &quot;solo&quot; has already been applied and cannot be used in conjunction with other coupons.',
    );
  });

  it('product/category restrictions and exclusions', async () => {
    const gateways = await shopper([['bravo-outdoor-gateway', 1]]);
    expect(await gateways.fails(APPLY, { code: 'antennas20' })).toBe(
      'Sorry, coupon &quot;antennas20&quot; is not applicable to your cart contents.',
    );
    expect(await gateways.fails(APPLY, { code: 'not-bravo' })).toBe(
      'Sorry, coupon "not-bravo" is not applicable to the products: Bravo Outdoor Gateway.',
    );
    expect(await gateways.fails(APPLY, { code: 'not-bravo-pct' })).toBe(
      'Sorry, coupon &quot;not-bravo-pct&quot; is not applicable to your cart contents.',
    );
    await gateways.ok(APPLY, { code: 'gateways-only' });
    const mixed = await shopper([
      ['bravo-outdoor-gateway', 1],
      ['omni-antenna', 1],
    ]);
    await mixed.ok(APPLY, { code: 'antennas20' });
    const twenty = (await mixed.ok(CART)).cart; // 20% of the antenna only: €9.98 = 8.38 + 1.60 VAT
    expect(twenty.rawDiscountTotal).toBe('8.38');
    expect(twenty.appliedCoupons[0].rawDiscountTax).toBe('1.6');
    await mixed.ok(REMOVE, { codes: ['antennas20'] });
    await mixed.ok(APPLY, { code: 'not-bravo-pct' }); // a product coupon skips excluded lines
    const fifty = (await mixed.ok(CART)).cart; // €24.95 = 20.96 + 3.99 VAT
    expect(fifty.rawDiscountTotal).toBe('20.96');
    expect(fifty.appliedCoupons[0].rawDiscountTax).toBe('3.99');
    const antennas = await shopper([['omni-antenna', 1]]);
    expect(await antennas.fails(APPLY, { code: 'gateways-only' })).toBe(
      'Sorry, coupon &quot;gateways-only&quot; is not applicable to your cart contents.',
    );
  });

  it('sale items excluded', async () => {
    const sale = await shopper([['omni-antenna', 1]]);
    expect(await sale.fails(APPLY, { code: 'nosale' })).toBe(
      'Sorry, coupon &quot;nosale&quot; is not valid for sale items.',
    );
    const mixed = await shopper([
      ['omni-antenna', 1],
      ['catalog-only-sticker', 4],
    ]);
    await mixed.ok(APPLY, { code: 'nosale' });
    // 10% of the stickers (€10), not of the antenna: €1.00 = 0.84 + 0.16 VAT.
    const c = (await mixed.ok(CART)).cart;
    expect(c.rawDiscountTotal).toBe('0.84');
    expect(c.appliedCoupons[0].rawDiscountTax).toBe('0.16');
  });

  it('a coupon that stops being valid is dropped from the cart (minimum spend no longer met)', async () => {
    const s = await shopper([['omni-antenna', 3]]);
    await s.ok(APPLY, { code: 'min100' });
    const key = (await s.ok(CART)).cart.contents.nodes[0].key;
    const d = await s.ok(operation('UpDateCartQuantity'), { key, quantity: 1 });
    expect(d.updateItemQuantities.cart.appliedCoupons).toBeNull();
  });
});

describe('coupons at checkout', () => {
  const checkout = (s: Shopper, billing: Record<string, string> = BILLING) =>
    s.gql(CHECKOUT, { paymentMethod: 'cod', billing });

  it('e-mail restrictions are checked against the billing e-mail', async () => {
    const s = await shopper([['omni-antenna', 1]]);
    await s.ok(APPLY, { code: 'staff' });
    const r = await checkout(s);
    expect(r.body.errors?.[0]?.message).toBe('Please enter a valid email to use coupon code &quot;staff&quot;.');
    const ok = await checkout(s, { ...BILLING, email: 'grace@meshfront.example.com' });
    expect(ok.body.errors).toBeUndefined();
    // 30% of €49.90 = €14.97 off the gross price: 12.58 without tax.
    expect(ok.body.data.checkout.order.discountTotal).toBe('€12.58');
    expect(ok.body.data.checkout.order.total).toBe('€39.83'); // 34.93 + the flat rate 4.12 + 0.78 VAT
  });

  it('global usage limit: the last use goes to one order only', async () => {
    const a = await shopper([['omni-antenna', 1]]);
    const b = await shopper([['omni-antenna', 1]]);
    await a.ok(APPLY, { code: 'once' });
    await b.ok(APPLY, { code: 'once' });
    expect((await checkout(a)).body.errors).toBeUndefined();
    const r = await checkout(b, { ...BILLING, email: 'other@example.com' });
    expect(r.body.errors?.[0]?.message).toBe('Usage limit for coupon &quot;once&quot; has been reached.');
    const c = await shopper([['omni-antenna', 1]]);
    expect(await c.fails(APPLY, { code: 'once' })).toBe('Usage limit for coupon &quot;once&quot; has been reached.');
  });

  it('per-customer usage limit by billing e-mail', async () => {
    const a = await shopper([['omni-antenna', 1]]);
    await a.ok(APPLY, { code: 'once-each' });
    expect((await checkout(a, { ...BILLING, email: 'repeat@example.com' })).body.errors).toBeUndefined();
    const b = await shopper([['omni-antenna', 1]]);
    await b.ok(APPLY, { code: 'once-each' }); // the guest's e-mail is not known yet
    const r = await checkout(b, { ...BILLING, email: 'Repeat@Example.com' });
    expect(r.body.errors?.[0]?.message).toBe('Usage limit for coupon &quot;once-each&quot; has been reached.');
    expect((await checkout(b, { ...BILLING, email: 'new@example.com' })).body.errors).toBeUndefined();
    // once the session knows the e-mail, applying is refused up front
    const c = await shopper([['omni-antenna', 1]]);
    await c.ok(
      'mutation { updateCustomer(input: { billing: { email: "repeat@example.com" } }) { customer { email } } }',
    );
    expect(await c.fails(APPLY, { code: 'once-each' })).toBe(
      'Usage limit for coupon &quot;once-each&quot; has been reached.',
    );
    void SHIPPING_COUNTRY;
  });
});
