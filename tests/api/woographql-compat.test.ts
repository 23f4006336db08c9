// WooGraphQL compatibility: the operations a headless WooGraphQL storefront sends, written from WooGraphQL's
// schema and documentation (tests/compat/woographql, one document per operation). Every document must
// validate against the engine's schema; then they run in a shopper's order over the engine's HTTP handler —
// browse, cart, checkout with cash on delivery, register, log in, order history, token refresh, review —
// and each step asserts what such a client reads: types, non-null fields, formatted prices and totals that
// add up.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCustomer } from './accounts-helpers.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, productId, Shopper, variationId } from './shop-helpers.ts';

const DIR = path.resolve(import.meta.dirname, '../compat/woographql');
const readFolder = (dir: string) =>
  new Map(
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.graphql'))
      .map((f) => [f.replace(/\.graphql$/, ''), fs.readFileSync(path.join(dir, f), 'utf8')]),
  );
const DOCUMENTS = readFolder(DIR);
/** Fragments several operations spread (the cart, the order), kept once as clients keep them. */
const FRAGMENTS = readFolder(path.join(DIR, 'fragments'));
/** The operations the suite runs: every one must have its document, and every document must be run. */
const OPERATIONS = [
  'ProductList',
  'ProductBySlug',
  'ProductVariation',
  'GetCart',
  'AddToCart',
  'UpdateItemQuantities',
  'RemoveItemsFromCart',
  'EmptyCart',
  'ApplyCoupon',
  'RemoveCoupons',
  'UpdateCustomer',
  'UpdateShippingMethod',
  'PaymentGateways',
  'Checkout',
  'Order',
  'CustomerOrders',
  'Orders',
  'RegisterCustomer',
  'Login',
  'LoginJwtAuthentication',
  'Viewer',
  'RefreshToken',
  'WriteReview',
] as const;
type Operation = (typeof OPERATIONS)[number];

/** The operation's text with the fragments it spreads (transitively) from fragments/, as a client sends it. */
function doc(name: Operation): string {
  const text = DOCUMENTS.get(name);
  if (!text) throw new Error(`no document tests/compat/woographql/${name}.graphql`);
  const parts = [text];
  const included = new Set<string>();
  const pending = [...text.matchAll(/\.\.\.\s*([A-Z]\w*)/g)].map((m) => m[1]!);
  while (pending.length) {
    const fragment = pending.pop()!;
    const body = FRAGMENTS.get(fragment);
    if (!body || included.has(fragment)) continue;
    included.add(fragment);
    parts.push(body);
    for (const m of body.matchAll(/\.\.\.\s*([A-Z]\w*)/g)) pending.push(m[1]!);
  }
  return parts.join('\n');
}

/** Cents of a RAW money string ("49.9" → 4990); RAW amounts are plain decimal numbers. */
function cents(raw: string | null | undefined): number {
  expect(raw, 'a RAW amount').toMatch(/^-?\d+(\.\d+)?$/);
  return Math.round(Number(raw) * 100);
}
/** A FORMATTED price of this shop: the euro sign, a number with two decimals. */
const EURO = /^€\d{1,3}(,\d{3})*\.\d{2}$/;
/** A woocommerce-session token: a bare JWT (three base64url parts), no "Session " prefix. */
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const b64 = (s: string) => Buffer.from(s).toString('base64');

let t: TestEngine;
let ids: Record<string, number>;
/** One guest shopper, as a browser keeps it: the token from the response header goes back as "Session <token>". */
let guest: Shopper;
beforeAll(async () => {
  // A cheaper password hash keeps registration and login quick; the hashing itself is tested elsewhere.
  process.env.PASSWORD_SCRYPT_LOG2N = '12';
  t = await startTestEngine();
  ids = {};
  for (const slug of ['omni-antenna', 'alpha-gateway', 'mesh-hoodie', 'bravo-outdoor-gateway', 'partner-solar-kit'])
    ids[slug] = await productId(t, slug);
  ids.alphaEu = await variationId(t, 'FX-ALPHA-EU');
  ids.alphaUs = await variationId(t, 'FX-ALPHA-US');
}, ENGINE_START_TIMEOUT_MS);
afterAll(() => t?.close());

describe('documents', () => {
  it('the folder holds exactly the operations this suite runs', () => {
    expect([...DOCUMENTS.keys()].sort()).toEqual([...OPERATIONS].sort());
  });

  it.each([...OPERATIONS])('%s validates against the engine schema', (name) => {
    // The engine's schema is built with graphql's CommonJS build: parse and validate with that same copy.
    const { parse, validate } = createRequire(import.meta.url)('graphql') as typeof import('graphql');
    const errors = validate(t.engine.schema, parse(doc(name)));
    expect(errors.map((e) => e.message)).toEqual([]);
  });
});

describe('catalog', () => {
  const LISTED = { visibility: 'VISIBLE', status: 'publish', orderby: [{ field: 'DATE', order: 'DESC' }] };
  const anon = () => new Shopper(t);

  it('ProductList: pages with first/after through the whole catalog; pageInfo and cursors chain', async () => {
    const seen: any[] = [];
    let after: string | null = null;
    for (let page = 0; ; page++) {
      expect(page).toBeLessThan(20);
      const d: any = await anon().ok(doc('ProductList'), { first: 3, after, where: LISTED });
      const c = d.products;
      // A client renders cursors and decides on "more" from pageInfo alone.
      expect(c.edges.map((e: any) => e.cursor)).toEqual(c.nodes.map(() => expect.any(String)));
      expect(c.pageInfo.startCursor).toBe(c.edges[0]?.cursor ?? null);
      expect(c.pageInfo.endCursor).toBe(c.edges.at(-1)?.cursor ?? null);
      expect(c.pageInfo.hasPreviousPage).toBe(after !== null);
      seen.push(...c.nodes);
      if (!c.pageInfo.hasNextPage) break;
      expect(c.nodes).toHaveLength(3);
      after = c.pageInfo.endCursor;
    }
    // Every visible, published product once, newest first; no draft, hidden or search-only product.
    const slugs = seen.map((n) => n.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs).toEqual([
      'mesh-os',
      'mesh-hoodie',
      'bravo-outdoor-gateway',
      'omni-antenna',
      'alpha-gateway',
      'partner-solar-kit',
      'yagi-antenna',
      'n-type-cable',
    ]);
    expect(new Set(seen.map((n) => n.__typename))).toEqual(
      new Set(['SimpleProduct', 'VariableProduct', 'ExternalProduct']),
    );
    for (const n of seen) {
      // Node ids are Relay ids of post:<databaseId>; every product has an image and a formatted price.
      expect(n.id).toBe(b64(`post:${n.databaseId}`));
      expect(n.type).toBe(
        { SimpleProduct: 'SIMPLE', VariableProduct: 'VARIABLE', ExternalProduct: 'EXTERNAL' }[n.__typename as string],
      );
      expect(n.image.sourceUrl).toMatch(/^https?:\/\/.+\.svg$/);
      expect(n.productCategories.nodes.length).toBeGreaterThan(0);
      expect(n.price).toMatch(n.__typename === 'VariableProduct' ? /^€\d+\.\d{2}( - €\d+\.\d{2})?$/ : EURO);
    }
    const bySlug = Object.fromEntries(seen.map((n) => [n.slug, n]));
    // A simple product on sale: the sale price is the price, both formatted; RAW is the plain number.
    expect(bySlug['omni-antenna']).toMatchObject({
      __typename: 'SimpleProduct',
      onSale: true,
      price: '€49.90',
      rawPrice: '49.9',
      regularPrice: '€59.90',
      salePrice: '€49.90',
      stockStatus: 'IN_STOCK',
      stockQuantity: 30,
      manageStock: 'TRUE',
      virtual: false,
    });
    expect(bySlug['n-type-cable']).toMatchObject({ stockStatus: 'OUT_OF_STOCK', stockQuantity: 0 });
    expect(bySlug['yagi-antenna']).toMatchObject({ stockStatus: 'ON_BACKORDER', rawPrice: '89' });
    expect(bySlug['mesh-os']).toMatchObject({ virtual: true, downloadable: true, price: '€19.00' });
    expect(bySlug['partner-solar-kit']).toMatchObject({
      __typename: 'ExternalProduct',
      externalUrl: 'https://partner.example.com/solar-kit',
      buttonText: 'Buy from SolarCo',
      price: '€299.00',
    });
    // A variable product lists its variations; its RAW price is the sorted list of their prices.
    const alpha = bySlug['alpha-gateway'];
    expect(alpha.__typename).toBe('VariableProduct');
    expect(alpha.variations.nodes).toHaveLength(3);
    const variationPrices = alpha.variations.nodes
      .map((v: any) => Number(v.price))
      .sort((a: number, b: number) => a - b);
    expect(alpha.rawPrice.split(',').map(Number)).toEqual(variationPrices);
  });

  it('ProductList where: category, search and orderby narrow and sort the list', async () => {
    const list = async (where: Record<string, unknown>) =>
      ((await anon().ok(doc('ProductList'), { first: 100, where })) as any).products.nodes;

    const antennas = await list({ category: 'antennas', orderby: [{ field: 'NAME', order: 'ASC' }] });
    expect(antennas.map((n: any) => n.slug)).toEqual(['omni-antenna', 'yagi-antenna']);
    for (const n of antennas) expect(n.productCategories.nodes.map((c: any) => c.slug)).toContain('antennas');

    const found = await list({ search: 'gateway', visibility: 'VISIBLE' });
    expect(found.map((n: any) => n.slug).sort()).toEqual(['alpha-gateway', 'bravo-outdoor-gateway']);

    const cheapFirst = await list({ ...LISTED, orderby: [{ field: 'PRICE', order: 'ASC' }] });
    const lowest = cheapFirst.map((n: any) => Math.min(...n.rawPrice.split(',').map(Number)));
    expect(lowest).toEqual([...lowest].sort((a, b) => a - b));
    expect(cheapFirst).toHaveLength(8);
  });

  it('ProductBySlug: a variable product with attributes, default attributes, variations, image and gallery', async () => {
    const d: any = await anon().ok(doc('ProductBySlug'), { slug: 'alpha-gateway' });
    const p = d.product;
    expect(p).toMatchObject({
      __typename: 'VariableProduct',
      databaseId: ids['alpha-gateway'],
      slug: 'alpha-gateway',
      name: 'Alpha Indoor Gateway',
      type: 'VARIABLE',
      purchasable: true,
      weight: '0.4',
      length: '12',
      width: '10',
      height: '4',
    });
    expect(p.description).toEqual(expect.any(String));
    expect(p.image.sourceUrl).toMatch(/alpha\.svg$/);
    expect(p.galleryImages.nodes.map((i: any) => i.sourceUrl.split('/').at(-1))).toEqual([
      'alpha-back.svg',
      'alpha-side.svg',
    ]);
    const band = p.attributes.nodes.find((a: any) => a.name === 'pa_frequency-band');
    expect(band).toMatchObject({ scope: 'GLOBAL', variation: true, options: ['eu868', 'us915', 'as923'] });
    expect(band.terms.nodes.map((x: any) => x.slug).sort()).toEqual(['as923', 'eu868', 'us915']);
    expect(p.defaultAttributes.nodes).toEqual([expect.objectContaining({ name: 'pa_frequency-band', value: 'eu868' })]);
    const variations = p.variations.nodes;
    expect(variations).toHaveLength(3);
    expect(p.variations.pageInfo.hasNextPage).toBe(false);
    for (const v of variations) {
      expect(v.price).toMatch(EURO);
      expect(v.rawPrice).toMatch(/^\d+(\.\d+)?$/);
      expect(v.attributes.nodes).toEqual([
        expect.objectContaining({ name: 'pa_frequency-band', value: expect.any(String) }),
      ]);
    }
    const eu = variations.find((v: any) => v.databaseId === ids.alphaEu);
    expect(eu).toMatchObject({ sku: 'FX-ALPHA-EU', price: '€199.00', stockStatus: 'IN_STOCK', stockQuantity: 5 });
    expect(eu.image.sourceUrl).toMatch(/alpha-eu\.svg$/);
    expect(eu.attributes.nodes[0].value).toBe('eu868');
    // The product's RAW price lists the variations' prices.
    expect(p.rawPrice.split(',').map(Number).sort()).toEqual(variations.map((v: any) => Number(v.rawPrice)).sort());
    // Reviews: the connection's average is the mean of the edges' ratings.
    const ratings = p.reviews.edges.map((e: any) => e.rating);
    expect(ratings.length).toBeGreaterThan(0);
    expect(p.reviews.averageRating).toBeCloseTo(ratings.reduce((a: number, b: number) => a + b, 0) / ratings.length, 2);
    expect(p.reviews.edges[0].node.author.node.name).toEqual(expect.any(String));
    expect(p.related.nodes.map((r: any) => r.slug)).toContain('omni-antenna');
  });

  it('ProductBySlug: local attributes, a simple product, an external product and an unknown slug', async () => {
    const hoodie: any = (await anon().ok(doc('ProductBySlug'), { slug: 'mesh-hoodie' })).product;
    expect(hoodie.attributes.nodes.find((a: any) => a.name === 'Material')).toMatchObject({
      scope: 'LOCAL',
      options: ['Organic cotton'],
    });
    expect(hoodie.defaultAttributes.nodes.map((a: any) => [a.name, a.value])).toEqual([
      ['pa_color', 'black'],
      ['pa_size', 'm'],
    ]);
    expect(hoodie.variations.nodes.length).toBeGreaterThan(1);

    const omni: any = (await anon().ok(doc('ProductBySlug'), { slug: 'omni-antenna' })).product;
    expect(omni).toMatchObject({ __typename: 'SimpleProduct', price: '€49.90', regularPrice: '€59.90', onSale: true });
    expect(omni.defaultAttributes.nodes).toEqual([]);

    const solar: any = (await anon().ok(doc('ProductBySlug'), { slug: 'partner-solar-kit' })).product;
    expect(solar).toMatchObject({
      __typename: 'ExternalProduct',
      externalUrl: 'https://partner.example.com/solar-kit',
    });

    expect(await anon().ok(doc('ProductBySlug'), { slug: 'no-such-product' })).toEqual({ product: null });
  });

  it('ProductVariation: a variation by database id, with its parent', async () => {
    const d: any = await anon().ok(doc('ProductVariation'), { id: String(ids.alphaUs) });
    expect(d.productVariation).toMatchObject({
      __typename: 'SimpleProductVariation',
      databaseId: ids.alphaUs,
      id: b64(`post:${ids.alphaUs}`),
      sku: 'FX-ALPHA-US',
      parent: { node: { databaseId: ids['alpha-gateway'], slug: 'alpha-gateway' } },
    });
    expect(d.productVariation.price).toMatch(EURO);
    expect(d.productVariation.attributes.nodes).toEqual([{ name: 'pa_frequency-band', value: 'us915' }]);
  });
});

/** Checks a client makes on any cart it is shown: lines and totals add up, every amount formatted. */
function expectConsistentCart(cart: any) {
  const lines = cart.contents.nodes;
  expect(cart.contents.itemCount).toBe(lines.reduce((s: number, l: any) => s + l.quantity, 0));
  expect(cart.contents.productCount).toBe(lines.length);
  expect(cart.isEmpty).toBe(lines.length === 0);
  for (const l of lines) {
    expect(l.key).toEqual(expect.any(String));
    expect(l.quantity).toBeGreaterThan(0);
    expect(l.total).toMatch(EURO);
    expect(l.subtotal).toMatch(EURO);
    expect(l.product.node.databaseId).toEqual(expect.any(Number));
  }
  for (const field of ['subtotal', 'contentsTotal', 'discountTotal', 'shippingTotal', 'totalTax', 'total'])
    expect(cart[field], field).toMatch(EURO);
  // A line's total is after discounts with its tax: together they are the cart's contents with their tax.
  const linesTotal = lines.reduce((s: number, l: any) => s + cents(l.rawTotal), 0);
  expect(linesTotal).toBe(cents(cart.rawContentsTotal) + cents(cart.rawContentsTax));
  // Before discounts, the lines' subtotals are the cart's subtotal.
  expect(lines.reduce((s: number, l: any) => s + cents(l.rawSubtotal), 0)).toBe(cents(cart.rawSubtotal));
  // The total is the contents and shipping, each with its tax.
  expect(cents(cart.rawTotal)).toBe(
    cents(cart.rawContentsTotal) +
      cents(cart.rawContentsTax) +
      cents(cart.rawShippingTotal) +
      cents(cart.rawShippingTax),
  );
  expect(cents(cart.rawSubtotal) - cents(cart.rawDiscountTotal)).toBe(cents(cart.rawContentsTotal));
}

describe('cart with the woocommerce-session header', () => {
  const keys: Record<string, string> = {};

  it('GetCart: a first visit gets an empty cart and a session token, in the header and in customer.sessionToken', async () => {
    guest = new Shopper(t);
    const r = await guest.gql(doc('GetCart'));
    expect(r.body.errors).toBeUndefined();
    const issued = r.headers.get('woocommerce-session');
    expect(issued).toMatch(JWT);
    expect(r.body.data.customer).toEqual({ id: 'guest', sessionToken: expect.stringMatching(JWT) });
    const cart = r.body.data.cart;
    expect(cart).toMatchObject({ isEmpty: true, total: '€0.00', appliedCoupons: null, chosenShippingMethods: [] });
    expect(cart.contents).toMatchObject({ itemCount: 0, productCount: 0, nodes: [] });
    expectConsistentCart(cart);
  });

  it('AddToCart: a simple product, a variation by id and a variation by attributes', async () => {
    const r = await guest.gql(doc('AddToCart'), { productId: ids['omni-antenna'], quantity: 2 });
    expect(r.body.errors).toBeUndefined();
    // A cart mutation answers with the session's token again, so a client that only reads headers keeps up.
    expect(r.headers.get('woocommerce-session')).toMatch(JWT);
    const omni = r.body.data.addToCart;
    expect(omni.cartItem).toMatchObject({
      quantity: 2,
      total: '€99.80',
      product: { node: { databaseId: ids['omni-antenna'] } },
      variation: null,
    });
    keys.omni = omni.cartItem.key;
    expectConsistentCart(omni.cart);

    const alpha: any = (
      await guest.ok(doc('AddToCart'), { productId: ids['alpha-gateway'], variationId: ids.alphaEu, quantity: 1 })
    ).addToCart;
    expect(alpha.cartItem).toMatchObject({
      quantity: 1,
      total: '€199.00',
      product: { node: { databaseId: ids['alpha-gateway'] } },
      variation: { node: { databaseId: ids.alphaEu } },
    });
    keys.alpha = alpha.cartItem.key;

    const hoodie: any = (
      await guest.ok(doc('AddToCart'), {
        productId: ids['mesh-hoodie'],
        variation: [
          { attributeName: 'pa_color', attributeValue: 'teal' },
          { attributeName: 'pa_size', attributeValue: 's' },
        ],
      })
    ).addToCart;
    keys.hoodie = hoodie.cartItem.key;
    expect(hoodie.cartItem.quantity).toBe(1);
    const cart = hoodie.cart;
    expectConsistentCart(cart);
    expect(cart.contents.itemCount).toBe(4);
    expect(cart.contents.nodes.map((l: any) => l.key)).toEqual([keys.omni, keys.alpha, keys.hoodie]);
    const line = cart.contents.nodes.find((l: any) => l.key === keys.hoodie);
    expect(line.variation.attributes.map((a: any) => [a.name, a.value])).toEqual([
      ['pa_color', 'teal'],
      ['pa_size', 's'],
    ]);
    expect(line.product.node).toMatchObject({ slug: 'mesh-hoodie', type: 'VARIABLE' });
    // Germany by default: prices include 19 % VAT, and the cart names a shipping package with rates.
    expect(cents(cart.rawTotalTax)).toBeGreaterThan(0);
    expect(cart.needsShippingAddress).toBe(true);
    expect(cart.availableShippingMethods).toHaveLength(1);
    expect(cart.availableShippingMethods[0].rates.length).toBeGreaterThan(1);
    expect(cart.chosenShippingMethods).toHaveLength(1);
  });

  it('UpdateItemQuantities: sets a quantity and removes a line given 0', async () => {
    const d: any = (
      await guest.ok(doc('UpdateItemQuantities'), {
        items: [
          { key: keys.omni, quantity: 3 },
          { key: keys.hoodie, quantity: 0 },
        ],
      })
    ).updateItemQuantities;
    expect(d.updated).toEqual([{ key: keys.omni, quantity: 3 }]);
    expect(d.removed).toEqual([{ key: keys.hoodie }]);
    expect(d.cart.contents.nodes.map((l: any) => [l.key, l.quantity])).toEqual([
      [keys.omni, 3],
      [keys.alpha, 1],
    ]);
    expect(d.cart.contents.nodes[0].total).toBe('€149.70');
    expectConsistentCart(d.cart);
  });

  it('ApplyCoupon and RemoveCoupons: ten percent off the goods, then back to the full price', async () => {
    const before: any = (await guest.ok(doc('GetCart'))).cart;
    const applied: any = (await guest.ok(doc('ApplyCoupon'), { code: 'WELCOME10' })).applyCoupon;
    expect(applied.applied).toMatchObject({ code: 'welcome10', discountAmount: expect.stringMatching(EURO) });
    const cart = applied.cart;
    expect(cart.appliedCoupons).toEqual([
      { code: 'welcome10', discountAmount: applied.applied.discountAmount, discountTax: expect.stringMatching(EURO) },
    ]);
    // Percent coupons apply to the price without tax: 10 % of the subtotal, to the cent.
    expect(Math.abs(cents(cart.rawDiscountTotal) - Math.round(cents(cart.rawSubtotal) / 10))).toBeLessThanOrEqual(1);
    expect(cents(cart.rawTotal)).toBeLessThan(cents(before.rawTotal));
    expectConsistentCart(cart);

    const removed: any = (await guest.ok(doc('RemoveCoupons'), { codes: ['welcome10'] })).removeCoupons;
    expect(removed.cart.appliedCoupons).toBeNull();
    expect(removed.cart.rawDiscountTotal).toBe('0');
    expect(removed.cart.rawTotal).toBe(before.rawTotal);
    expectConsistentCart(removed.cart);
  });

  it('UpdateCustomer: the shipping calculator sets the address the cart is taxed and shipped to', async () => {
    const d: any = (
      await guest.ok(doc('UpdateCustomer'), {
        shipping: { country: 'DE', postcode: '10115', city: 'Berlin' },
        billing: { country: 'DE', postcode: '10115', city: 'Berlin' },
      })
    ).updateCustomer;
    expect(d.customer).toMatchObject({
      id: 'guest',
      hasCalculatedShipping: true,
      calculatedShipping: true,
      shipping: { country: 'DE', postcode: '10115', city: 'Berlin' },
      billing: { country: 'DE', postcode: '10115', city: 'Berlin' },
    });
    expect(d.customer.sessionToken).toMatch(JWT);
  });

  it('UpdateShippingMethod: choosing another of the offered rates changes shipping and total', async () => {
    const before: any = (await guest.ok(doc('GetCart'))).cart;
    const rates = before.availableShippingMethods[0].rates;
    for (const r of rates) {
      expect(r).toMatchObject({ id: expect.any(String), methodId: expect.any(String), label: expect.any(String) });
      expect(r.cost).toMatch(EURO);
      expect(r.id.startsWith(`${r.methodId}:`)).toBe(true);
    }
    const other = rates.find((r: any) => r.id !== before.chosenShippingMethods[0] && r.cost !== '€0.00');
    expect(other).toBeDefined();
    const cart: any = (await guest.ok(doc('UpdateShippingMethod'), { shippingMethods: [other.id] }))
      .updateShippingMethod.cart;
    expect(cart.chosenShippingMethods).toEqual([other.id]);
    // The rate's cost is shown as the cart shows prices: with its tax.
    expect(cents(cart.rawShippingTotal) + cents(cart.rawShippingTax)).toBe(cents(other.cost.replace(/[^\d.]/g, '')));
    expect(cents(cart.rawTotal) - cents(before.rawTotal)).toBe(
      cents(cart.rawShippingTotal) +
        cents(cart.rawShippingTax) -
        cents(before.rawShippingTotal) -
        cents(before.rawShippingTax),
    );
    expectConsistentCart(cart);
  });

  it('RemoveItemsFromCart: removes a line by key and returns it', async () => {
    await guest.ok(doc('AddToCart'), { productId: ids['bravo-outdoor-gateway'], quantity: 1 });
    const d: any = (await guest.ok(doc('RemoveItemsFromCart'), { keys: [keys.alpha] })).removeItemsFromCart;
    expect(d.cartItems).toEqual([{ key: keys.alpha, quantity: 1 }]);
    expect(d.cart.contents.nodes.map((l: any) => l.product.node.databaseId)).toEqual([
      ids['omni-antenna'],
      ids['bravo-outdoor-gateway'],
    ]);
    expectConsistentCart(d.cart);
  });

  it('EmptyCart: another shopper empties a cart; deletedCart shows what it held', async () => {
    const other = new Shopper(t);
    await other.ok(doc('AddToCart'), { productId: ids['omni-antenna'], quantity: 1 });
    const d: any = (await other.ok(doc('EmptyCart'))).emptyCart;
    // 49.90 and the flat rate's 4.90 (below the free-shipping threshold), both with VAT.
    expect(d.deletedCart).toEqual({ contents: { itemCount: 1 }, total: '€54.80' });
    expect(d.cart).toMatchObject({ isEmpty: true, total: '€0.00', contents: { itemCount: 0, nodes: [] } });
    // The guest's own cart is another session's: untouched.
    expect(((await guest.ok(doc('GetCart'))) as any).cart.contents.itemCount).toBe(4);
  });
});

/** Checks a client makes on an order it is shown: formatted amounts, and lines, shipping and tax adding up. */
function expectConsistentOrder(o: any) {
  expect(o.id).toBe(b64(`order:${o.databaseId}`));
  expect(o.orderNumber).toBe(String(o.databaseId));
  expect(o.orderKey).toMatch(/^wc_order_\w+$/);
  expect(o.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
  for (const field of ['subtotal', 'discountTotal', 'shippingTotal', 'shippingTax', 'totalTax', 'total'])
    expect(o[field], field).toMatch(EURO);
  const lines = o.lineItems.nodes;
  expect(lines.length).toBeGreaterThan(0);
  for (const l of lines) {
    expect(l.orderId).toBe(o.databaseId);
    expect(l.product.node.databaseId).toBe(l.productId);
    expect(l.total).toMatch(EURO);
  }
  const lineTax = lines.reduce((s: number, l: any) => s + cents(l.rawTotalTax), 0);
  const lineTotal = lines.reduce((s: number, l: any) => s + cents(l.rawTotal), 0);
  expect(cents(o.rawTotalTax)).toBe(lineTax + cents(o.rawShippingTax));
  expect(cents(o.rawTotal)).toBe(lineTotal + lineTax + cents(o.rawShippingTotal) + cents(o.rawShippingTax));
  expect(cents(o.rawSubtotal) - cents(o.rawDiscountTotal)).toBe(lineTotal);
}

const SHIPPING = {
  firstName: 'Grace',
  lastName: 'Hopper',
  address1: 'Lindenstr. 5',
  city: 'Hamburg',
  postcode: '20095',
  country: 'DE',
};

describe('checkout with cash on delivery', () => {
  let order: any;

  it("PaymentGateways: offers cash on delivery as gateway id 'cod'", async () => {
    const d: any = await guest.ok(doc('PaymentGateways'));
    const cod = d.paymentGateways.nodes.find((g: any) => g.id === 'cod');
    expect(cod).toMatchObject({ id: 'cod', title: 'Cash on delivery' });
  });

  it("Checkout: the guest's cart becomes a processing order with the cart's lines and total; the cart is emptied", async () => {
    const cart: any = (await guest.ok(doc('GetCart'))).cart;
    expect(cart.contents.itemCount).toBe(4);
    const d: any = (
      await guest.ok(doc('Checkout'), {
        paymentMethod: 'cod',
        billing: BILLING,
        shipping: SHIPPING,
        shipToDifferentAddress: true,
        shippingMethod: cart.chosenShippingMethods,
        customerNote: 'Please ring twice',
      })
    ).checkout;
    expect(d.result).toBe('success');
    order = d.order;
    expect(d.redirect).toContain(order.orderKey);
    expect(order).toMatchObject({
      status: 'PROCESSING',
      paymentMethod: 'cod',
      paymentMethodTitle: 'Cash on delivery',
      needsPayment: false,
      needsProcessing: true,
      datePaid: null,
      currency: 'EUR',
      customerNote: 'Please ring twice',
      billing: { ...BILLING },
      shipping: { ...SHIPPING },
    });
    // The order charges exactly what the cart showed.
    expect(order.rawTotal).toBe(cart.rawTotal);
    expect(order.total).toBe(cart.total);
    expect(order.rawShippingTotal).toBe(cart.rawShippingTotal);
    expect(order.rawTotalTax).toBe(cart.rawTotalTax);
    expect(order.lineItems.nodes.map((l: any) => [l.productId, l.variationId, l.quantity])).toEqual(
      cart.contents.nodes.map((l: any) => [
        l.product.node.databaseId,
        l.variation?.node.databaseId ?? null,
        l.quantity,
      ]),
    );
    expectConsistentOrder(order);

    const after: any = (await guest.ok(doc('GetCart'))).cart;
    expect(after).toMatchObject({ isEmpty: true, total: '€0.00' });
  });

  it('Order: by ORDER_KEY for anyone holding the key; by DATABASE_ID not for a stranger', async () => {
    const stranger = new Shopper(t);
    const byKey: any = (await stranger.ok(doc('Order'), { id: order.orderKey, idType: 'ORDER_KEY' })).order;
    expect(byKey).toEqual(order);
    expect(await stranger.ok(doc('Order'), { id: String(order.databaseId), idType: 'DATABASE_ID' })).toEqual({
      order: null,
    });
  });

  it("Orders and CustomerOrders: the guest session lists its own order; a stranger's list is empty", async () => {
    const r = await guest.gql(doc('Orders'), { first: 10 });
    expect(r.body.errors).toBeUndefined();
    // One customer's orders: never kept by a shared cache.
    expect(r.headers.get('cache-control')).toBe('private, no-store');
    const own = r.body.data;
    expect(own.orders.edges.map((e: any) => [e.node.databaseId, e.node.status, e.node.total])).toEqual([
      [order.databaseId, 'PROCESSING', order.total],
    ]);
    expect(own.orders.pageInfo.hasNextPage).toBe(false);
    const viaCustomer: any = await guest.ok(doc('CustomerOrders'), { first: 10 });
    expect(viaCustomer.customer.orders.nodes.map((o: any) => o.databaseId)).toEqual([order.databaseId]);

    const stranger = new Shopper(t);
    expect(((await stranger.ok(doc('Orders'), { first: 10 })) as any).orders.edges).toEqual([]);
  });
});

describe('customer accounts', () => {
  const person = newCustomer('compat');
  let account: { userId: number; authToken: string; refreshToken: string };

  it('RegisterCustomer: creates the account and logs it in; the shipping address copies the billing one', async () => {
    const r = await new Shopper(t).ok(doc('RegisterCustomer'), {
      ...person,
      billing: { ...BILLING, email: person.email, firstName: person.firstName, lastName: person.lastName },
    });
    const p: any = r.registerCustomer;
    expect(p.authToken).toMatch(JWT);
    expect(p.refreshToken).toEqual(expect.any(String));
    expect(p.viewer).toEqual({
      id: b64(`user:${p.viewer.databaseId}`),
      databaseId: expect.any(Number),
      username: person.username,
      email: person.email,
    });
    expect(p.customer).toMatchObject({
      id: p.viewer.id,
      databaseId: p.viewer.databaseId,
      username: person.username,
      email: person.email,
      firstName: person.firstName,
      lastName: person.lastName,
      sessionToken: expect.stringMatching(JWT),
      billing: { firstName: person.firstName, city: 'Berlin', country: 'DE' },
      shipping: { firstName: person.firstName, city: 'Berlin', country: 'DE' },
    });
    account = { userId: p.viewer.databaseId, authToken: p.authToken, refreshToken: p.refreshToken };
  });

  it('Login: username or e-mail with the password gives tokens, the user and the customer with its session token', async () => {
    for (const username of [person.username, person.email]) {
      const r = await new Shopper(t).gql(doc('Login'), { username, password: person.password });
      expect(r.body.errors).toBeUndefined();
      const p: any = r.body.data.login;
      expect(p.authToken).toMatch(JWT);
      expect(p.refreshToken).toEqual(expect.any(String));
      expect(Number(p.authTokenExpiration)).toBeGreaterThan(Date.now() / 1000);
      expect(Number(p.refreshTokenExpiration)).toBeGreaterThan(Number(p.authTokenExpiration));
      expect(p.sessionToken).toMatch(JWT);
      expect(p.user).toMatchObject({ databaseId: account.userId, username: person.username, email: person.email });
      expect(p.customer).toMatchObject({
        databaseId: account.userId,
        email: person.email,
        firstName: person.firstName,
      });
    }
    const wrong = await new Shopper(t).gql(doc('Login'), { username: person.username, password: 'not-the-password' });
    expect(wrong.body.errors?.[0]?.message).toEqual(expect.any(String));
    expect(wrong.body.data?.login ?? null).toBeNull();
  });

  it('LoginJwtAuthentication: username and password alone (WPGraphQL JWT Authentication) log in as the PASSWORD provider', async () => {
    const r = await new Shopper(t).gql(doc('LoginJwtAuthentication'), {
      username: person.email,
      password: person.password,
    });
    expect(r.body.errors).toBeUndefined();
    const p: any = r.body.data.login;
    expect(p.clientMutationId).toBe('jwt-login');
    expect(p.authToken).toMatch(JWT);
    expect(p.refreshToken).toEqual(expect.any(String));
    expect(p.user).toMatchObject({ databaseId: account.userId, username: person.username, email: person.email });
    // The token is the customer's: the viewer it names is this account.
    const me: any = await new Shopper(t, { authorization: `Bearer ${p.authToken}` }).ok(doc('Viewer'));
    expect(me.viewer).toMatchObject({ databaseId: account.userId });
    const wrong = await new Shopper(t).gql(doc('LoginJwtAuthentication'), {
      username: person.username,
      password: 'not-the-password',
    });
    expect(wrong.body.errors?.[0]?.message).toEqual(expect.any(String));
    expect(wrong.body.data?.login ?? null).toBeNull();
    // Neither a provider nor a username and password: a clear refusal.
    const neither = await new Shopper(t).gql('mutation { login(input: {}) { authToken } }');
    expect(neither.body.errors?.[0]?.message).toBe('Name a login provider, or send a username and a password.');
    expect(neither.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('Viewer: the Bearer token names the user and gives its woocommerce-session token', async () => {
    const anonymous: any = await new Shopper(t).ok(doc('Viewer'));
    expect(anonymous.viewer).toBeNull();
    const me: any = await new Shopper(t, { authorization: `Bearer ${account.authToken}` }).ok(doc('Viewer'));
    expect(me.viewer).toMatchObject({
      databaseId: account.userId,
      username: person.username,
      wooSessionToken: expect.stringMatching(JWT),
    });
  });

  it("CustomerOrders, Orders and Order: a logged-in customer's checkout shows in their history and nobody else's", async () => {
    const me = new Shopper(t, { authorization: `Bearer ${account.authToken}` });
    await me.ok(doc('AddToCart'), { productId: ids['bravo-outdoor-gateway'], quantity: 1 });
    const placed: any = (
      await me.ok(doc('Checkout'), { paymentMethod: 'cod', billing: { ...BILLING, email: person.email } })
    ).checkout.order;
    expect(placed).toMatchObject({ status: 'PROCESSING', total: '€449.00', billing: { email: person.email } });
    expectConsistentOrder(placed);

    const history: any = (await me.ok(doc('CustomerOrders'), { first: 10 })).customer;
    expect(history).toMatchObject({ databaseId: account.userId, email: person.email });
    expect(history.orders.nodes).toEqual([placed]);
    expect(history.orders.pageInfo.hasNextPage).toBe(false);

    const root: any = await me.ok(doc('Orders'), { first: 10 });
    expect(root.orders.edges.map((e: any) => e.node.databaseId)).toEqual([placed.databaseId]);
    expect(((await me.ok(doc('Orders'), { first: 10, statuses: ['COMPLETED'] })) as any).orders.edges).toEqual([]);

    expect(
      ((await me.ok(doc('Order'), { id: String(placed.databaseId), idType: 'DATABASE_ID' })) as any).order,
    ).toEqual(placed);
    // The global id works too (the default idType).
    expect(((await me.ok(doc('Order'), { id: placed.id })) as any).order.databaseId).toBe(placed.databaseId);
    // Without the login, the order number alone opens nothing.
    expect(await new Shopper(t).ok(doc('Order'), { id: String(placed.databaseId), idType: 'DATABASE_ID' })).toEqual({
      order: null,
    });
  });

  it('RefreshToken: trades the refresh token for a working auth token and a new refresh token; the old one is spent', async () => {
    const d: any = (await new Shopper(t).ok(doc('RefreshToken'), { refreshToken: account.refreshToken })).refreshToken;
    expect(d).toMatchObject({ success: true, authToken: expect.stringMatching(JWT), refreshToken: expect.any(String) });
    expect(d.refreshToken).not.toBe(account.refreshToken);
    expect(Number(d.authTokenExpiration)).toBeGreaterThan(Date.now() / 1000);
    const me: any = await new Shopper(t, { authorization: `Bearer ${d.authToken}` }).ok(doc('Viewer'));
    expect(me.viewer.databaseId).toBe(account.userId);

    const spent: any = (await new Shopper(t).ok(doc('RefreshToken'), { refreshToken: account.refreshToken }))
      .refreshToken;
    expect(spent).toMatchObject({ success: false, authToken: null });
  });

  it("WriteReview: a logged-in customer's rating is published and counted on the product", async () => {
    // The refresh above spent this login's tokens; log in again as a client would.
    const login: any = (await new Shopper(t).ok(doc('Login'), { username: person.username, password: person.password }))
      .login;
    const before: any = (await new Shopper(t).ok(doc('ProductBySlug'), { slug: 'omni-antenna' })).product;
    const me = new Shopper(t, { authorization: `Bearer ${login.authToken}` });
    const d: any = (
      await me.ok(doc('WriteReview'), {
        commentOn: ids['omni-antenna'],
        rating: 4,
        content: 'Good range on the roof.',
        author: person.firstName,
        authorEmail: person.email,
      })
    ).writeReview;
    expect(d.rating).toBe(4);
    expect(d.review).toMatchObject({
      id: expect.any(String),
      databaseId: expect.any(Number),
      approved: true,
      author: { node: { name: expect.any(String) } },
    });
    expect(d.review.content).toContain('Good range on the roof.');
    const after: any = (await new Shopper(t).ok(doc('ProductBySlug'), { slug: 'omni-antenna' })).product;
    expect(after.reviewCount).toBe(before.reviewCount + 1);
    expect(after.reviews.edges.find((e: any) => e.node.databaseId === d.review.databaseId)?.rating).toBe(4);
  });
});
