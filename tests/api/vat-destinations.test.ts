// What a shopper outside the shop's base country meets besides the cart's own prices: a coupon's minimum
// and maximum spend compared with the subtotal they see (their destination's prices), and the domestic
// flat rate German shoppers are promised (€4.90 with VAT). A product entered at €119.00 (gross, German
// VAT) costs €120.00 in France and €100.00 in Switzerland.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemUnitPrice, lineDisplay, totalsRows } from '../../src/islands/cart/cart-view.ts';
import { bumpCounter } from '../../src/server/db/meta.ts';
import { loadCommerceSettings } from '../../src/server/shop/settings.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { headersOf, op, register } from './accounts-helpers.ts';
import { addCoupons, operation, productId, setStock, Shopper } from './shop-helpers.ts';

let t: TestEngine;
let yagi: number;
let cable: number;

const ADD = operation('addToCart');
const GET_CART = operation('getCart');
const APPLY = operation('applyCoupon');
const COUNTRY = operation('ChangeShippingCounty');
const VAT_ID = operation('UpdateVatId');
const SHOPPER_PRICES = operation('getShopperPrices');
const STOCK_STATUS = operation('getStockStatus');

beforeAll(async () => {
  t = await startTestEngine();
  yagi = await productId(t, 'yagi-antenna');
  cable = await productId(t, 'n-type-cable');
  await t.engine.database.db.transaction(async (tx) => {
    await tx.execute(sql`update catalog_products set regular_price_cents = 11900 where slug = 'yagi-antenna'`);
    await bumpCounter(tx, 'catalog_version');
  });
  t.engine.catalog.invalidate();
  await setStock(t, 'n-type-cable', 100);
  await addCoupons(t, [
    { code: 'min110', discountType: 'percent', amount: '10', minimumAmount: '110.00' },
    { code: 'max119', discountType: 'percent', amount: '10', maximumAmount: '119.50' },
    { code: 'min37-80', discountType: 'percent', amount: '10', minimumAmount: '37.80' },
  ]);
}, 300_000);

afterAll(async () => {
  await t?.close();
});

/** The subtotal as the cart drawer shows it (its own helper on the engine's answer). */
const shownSubtotal = async (s: Shopper) =>
  totalsRows((await s.ok(GET_CART)).cart).find((row) => row.key === 'subtotal')?.value;

async function shopper(lines: [number, number][], country?: string): Promise<Shopper> {
  const s = new Shopper(t);
  for (const [id, quantity] of lines) await s.ok(ADD, { productId: id, quantity });
  if (country) await s.ok(COUNTRY, { shippingCountry: country, billingCountry: country });
  return s;
}

describe("a coupon's minimum and maximum spend compare the subtotal the shopper sees", () => {
  it('Switzerland: the €119.00 antenna costs €100.00 there, below a €110.00 minimum', async () => {
    const s = await shopper([[yagi, 1]], 'CH');
    expect(await shownSubtotal(s)).toBe('€100.00');
    expect(await s.fails(APPLY, { code: 'min110' })).toBe(
      'The minimum spend for coupon &quot;min110&quot; is €110.00.',
    );
    // The same cart in Germany reaches it.
    const de = await shopper([[yagi, 1]], 'DE');
    expect((await de.ok(APPLY, { code: 'min110' })).applyCoupon.applied.code).toBe('min110');
  });

  it('France: €120.00 is above a €119.50 maximum; three cables at €12.61 reach a €37.80 minimum', async () => {
    const s = await shopper([[yagi, 1]], 'FR');
    expect(await shownSubtotal(s)).toBe('€120.00');
    expect(await s.fails(APPLY, { code: 'max119' })).toBe(
      'The maximum spend for coupon &quot;max119&quot; is €119.50.',
    );
    const cables = await shopper([[cable, 3]], 'FR');
    expect(await shownSubtotal(cables)).toBe('€37.83');
    expect((await cables.ok(APPLY, { code: 'min37-80' })).applyCoupon.applied.code).toBe('min37-80');
  });

  it('a coupon applied in Germany is dropped when the shopper moves the cart to Switzerland', async () => {
    const s = await shopper([[yagi, 1]], 'DE');
    await s.ok(APPLY, { code: 'min110' });
    await s.ok(COUNTRY, { shippingCountry: 'CH', billingCountry: 'CH' });
    const { cart } = await s.ok(GET_CART);
    expect(cart.appliedCoupons ?? []).toEqual([]);
    expect(cart.total).toBe('€124.90');
  });
});

describe('the domestic flat rate', () => {
  it('is €4.90 for a German shopper by default (€4.12 entered without tax, + 19%)', async () => {
    expect(loadCommerceSettings({}).zones[0]!.methods.find((m) => m.methodId === 'flat_rate')).toMatchObject({
      costCents: 412,
    });
    const s = await shopper([[cable, 1]], 'DE');
    const { cart } = await s.ok(GET_CART);
    expect(cart.availableShippingMethods[0].rates.find((r: { id: string }) => r.id === 'flat_rate:1').cost).toBe(
      '€4.90',
    );
    expect(cart.total).toBe('€17.40');
  });
});

describe('catalog prices for a shopper whose destination is known', () => {
  const pricesOf = async (s: Shopper, ids: number[]) => {
    const r = await s.gql(SHOPPER_PRICES, { include: ids, first: ids.length });
    expect(r.body.errors).toBeUndefined();
    // The shopper's own answer: no shared cache may keep it.
    expect(r.headers.get('cache-control')).toBe('private, no-store');
    const byId = Object.fromEntries(
      r.body.data.products.nodes.map((p: { databaseId: number; price: string; rawPrice: string }) => [
        p.databaseId,
        `${p.price} (${p.rawPrice})`,
      ]),
    );
    return { applies: r.body.data.customer.catalogPricesApply, byId };
  };

  it('France: €120.00 for the €119.00 antenna, €12.61 for the €12.50 cable; the catalog read stays German', async () => {
    const s = await shopper([], 'FR');
    expect(await pricesOf(s, [yagi, cable])).toEqual({
      applies: false,
      byId: { [yagi]: '€120.00 (120)', [cable]: '€12.61 (12.61)' },
    });
    // The same session's catalog read (prebuilt pages, the response cache) is the same for everyone.
    const live = await s.ok(STOCK_STATUS, { slug: 'yagi-antenna' });
    expect(live.product.price).toBe('€119.00');
  });

  it('Switzerland: the net price €100.00; Germany: the catalog price, which applies', async () => {
    expect(await pricesOf(await shopper([], 'CH'), [yagi])).toEqual({
      applies: false,
      byId: { [yagi]: '€100.00 (100)' },
    });
    expect(await pricesOf(await shopper([], 'DE'), [yagi])).toEqual({
      applies: true,
      byId: { [yagi]: '€119.00 (119)' },
    });
    // A shopper whose address is not known gets the base country's prices too.
    expect((await pricesOf(new Shopper(t), [yagi])).byId[yagi]).toBe('€119.00 (119)');
  });

  it('a variable product: each variation at the destination’s price, and the range', async () => {
    const { product } = await t.data(
      `{ product(id: "mesh-hoodie", idType: SLUG) { databaseId ... on VariableProduct { price variations { nodes { databaseId price } } } } }`,
    );
    const s = await shopper([], 'CH');
    const r = await s.ok(SHOPPER_PRICES, { include: [product.databaseId], first: 1 });
    const swiss = r.products.nodes[0];
    // 49.00 incl. 19% → 41.18 net for Switzerland.
    const net = (gross: string) => {
      const cents = Math.round(Number(gross.replace(/[^0-9.]/g, '')) * 100);
      return `€${(Math.round((cents * 10000) / 11900) / 100).toFixed(2)}`;
    };
    const expected = product.variations.nodes.map((v: { price: string }) => net(v.price));
    expect(swiss.variations.nodes.map((v: { price: string }) => v.price)).toEqual(expected);
    expect(expected).toContain('€41.18');
  });

  it("the cart drawer's lines show the product at the shopper's price, as the line amount", async () => {
    const s = await shopper([[yagi, 1]], 'CH');
    const { cart } = await s.ok(GET_CART);
    const line = cart.contents.nodes[0];
    expect(line.product.node.price).toBe('€100.00');
    expect(lineDisplay(line, cart.displayPricesIncludeTax)).toEqual({ amount: '€100.00', unit: '€100.00' });
    expect(itemUnitPrice(line)).toBe('€100.00');
  });

  it('a business whose VAT is reverse charged sees net prices', async () => {
    const s = await shopper([], 'FR');
    await s.ok(VAT_ID, { billingCountry: 'FR', vatId: 'FR40303265045' });
    expect((await pricesOf(s, [yagi])).byId[yagi]).toBe('€100.00 (100)');
  });

  it("a logged-in customer's saved shipping address prices a new session", async () => {
    const c = await register(t);
    const saved = await t.gql(
      op('UpdateCustomer'),
      {
        input: {
          shipping: {
            firstName: 'Ada',
            lastName: 'Lovelace',
            address1: '12 rue de la Paix',
            city: 'Paris',
            postcode: '75002',
            country: 'FR',
          },
        },
      },
      headersOf({ authToken: c.authToken, sessionToken: c.sessionToken }),
    );
    expect(saved.body.errors).toBeUndefined();
    // Another device: the login only, a session without any address.
    const other = new Shopper(t, headersOf({ authToken: c.authToken }));
    expect(await pricesOf(other, [yagi])).toEqual({ applies: false, byId: { [yagi]: '€120.00 (120)' } });
  });
});
