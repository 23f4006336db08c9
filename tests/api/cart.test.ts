// The session cart: every cart mutation of the contract, its errors, shipping and tax totals to the
// cent, and serialised mutations — through the storefront's own operation documents where it has them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from './harness.ts';
import { CART, operation, productId, Shopper, variationId } from './shop-helpers.ts';

let t: TestEngine;
let ids: Record<string, number>;
beforeAll(async () => {
  t = await startTestEngine();
  ids = {};
  for (const slug of [
    'bravo-outdoor-gateway',
    'omni-antenna',
    'alpha-gateway',
    'mesh-os',
    'n-type-cable',
    'yagi-antenna',
    'partner-solar-kit',
    'draft-prototype',
    'mesh-hoodie',
  ])
    ids[slug] = await productId(t, slug);
  ids.alphaEu = await variationId(t, 'FX-ALPHA-EU');
  ids.alphaAs = await variationId(t, 'FX-ALPHA-AS');
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const ADD = operation('addToCart');
const QTY = operation('UpDateCartQuantity');
const EMPTY = operation('EmptyCart');
const SHIP = operation('ChangeShippingMethod');
const COUNTRY = operation('ChangeShippingCounty');

describe('addToCart', () => {
  it('adds a simple product and returns the cart item and the whole cart (storefront document)', async () => {
    const s = new Shopper(t);
    const d = await s.ok(ADD, { productId: ids['bravo-outdoor-gateway'], quantity: 2 });
    expect(d.addToCart.cartItem.quantity).toBe(2);
    expect(d.addToCart.cart.isEmpty).toBe(false);
    expect(d.addToCart.cart.contents.itemCount).toBe(2);
    expect(d.addToCart.cart.contents.productCount).toBe(1);
    expect(d.addToCart.cart.contents.nodes[0].product.node.slug).toBe('bravo-outdoor-gateway');
    // 2 × €449.00 including 19% VAT: subtotal (without tax, as WooGraphQL's) 754.62 + 143.38 VAT.
    expect(d.addToCart.cart.rawSubtotal).toBe('754.62');
    expect(d.addToCart.cart.subtotal).toBe('€754.62');
    expect(d.addToCart.cart.rawSubtotalTax).toBe('143.38');
    expect(d.addToCart.cart.rawTotal).toBe('898');
    expect(s.token).toBeTruthy();
  });

  it('adds to the same line for the same product (same key, quantities summed)', async () => {
    const s = new Shopper(t);
    const a = await s.ok(ADD, { productId: ids['omni-antenna'] });
    const b = await s.ok(ADD, { productId: ids['omni-antenna'], quantity: 2 });
    expect(b.addToCart.cartItem.key).toBe(a.addToCart.cartItem.key);
    expect(b.addToCart.cartItem.quantity).toBe(3);
    expect(b.addToCart.cart.contents.productCount).toBe(1);
  });

  it('adds a variation by variationId + attributes, and a variation id given as productId maps to its parent', async () => {
    const s = new Shopper(t);
    const a = await s.ok(ADD, {
      productId: ids['alpha-gateway'],
      variationId: ids.alphaEu,
      variation: [{ attributeName: 'pa_frequency-band', attributeValue: 'eu868' }],
    });
    const line = a.addToCart.cart.contents.nodes[0];
    expect(line.variation.node.databaseId).toBe(ids.alphaEu);
    expect(line.variation.attributes).toEqual([expect.objectContaining({ name: 'pa_frequency-band', value: 'eu868' })]);
    const b = await s.ok(ADD, { productId: ids.alphaEu });
    expect(b.addToCart.cartItem.key).toBe(a.addToCart.cartItem.key);
    expect(b.addToCart.cartItem.quantity).toBe(2);
    expect(b.addToCart.cart.contents.nodes[0].product.node.databaseId).toBe(ids['alpha-gateway']);
    // attribute name without the pa_ prefix, no variationId: matched by attributes
    const c = await s.ok(ADD, {
      productId: ids['alpha-gateway'],
      variation: [{ attributeName: 'frequency-band', attributeValue: 'as923' }],
    });
    expect(c.addToCart.cart.contents.nodes.map((n: any) => n.variation.node.databaseId).sort()).toEqual(
      [ids.alphaEu, ids.alphaAs].sort(),
    );
  });

  it('refuses what WooGraphQL refuses, with its messages', async () => {
    const s = new Shopper(t);
    expect(await s.fails(ADD, { productId: 999999 })).toBe('No product found matching the ID provided');
    expect(await s.fails(ADD, { productId: ids['draft-prototype'] })).toBe('No product found matching the ID provided');
    expect(await s.fails(ADD, { productId: ids['bravo-outdoor-gateway'], quantity: 0 })).toBe(
      'Failed to add cart item. Please check input.',
    );
    expect(await s.fails(ADD, { productId: ids['partner-solar-kit'] })).toBe(
      'Sorry, this product cannot be purchased.',
    );
    expect(await s.fails(ADD, { productId: ids['n-type-cable'] })).toBe(
      'You cannot add &quot;N-Type Low-Loss Cable&quot; to the cart because the product is out of stock.',
    );
    expect(await s.fails(ADD, { productId: ids['bravo-outdoor-gateway'], quantity: 13 })).toBe(
      'You cannot add that amount of &quot;Bravo Outdoor Gateway&quot; to the cart because there is not enough stock (12 remaining).',
    );
    await s.ok(ADD, { productId: ids['bravo-outdoor-gateway'], quantity: 10 });
    expect(await s.fails(ADD, { productId: ids['bravo-outdoor-gateway'], quantity: 3 })).toBe(
      'You cannot add that amount to the cart &mdash; we have 12 in stock and you already have 10 in your cart.',
    );
    expect(await s.fails(ADD, { productId: ids['alpha-gateway'] })).toBe(
      'Please choose product options by visiting <a href="/product/alpha-gateway/" title="Alpha Indoor Gateway">Alpha Indoor Gateway</a>.',
    );
    expect(
      await s.fails(ADD, {
        productId: ids['alpha-gateway'],
        variation: [{ attributeName: 'pa_color', attributeValue: 'red' }],
      }),
    ).toBe('pa_color is not a valid attribute of the product: Alpha Indoor Gateway.');
    expect(await s.fails(ADD, { productId: ids['alpha-gateway'], variationId: ids.alphaEu + 1000 })).toMatch(
      /^The selected product isn't a variation of Alpha Indoor Gateway/,
    );
    expect(await s.fails(ADD, { productId: ids.alphaAs, quantity: 3 })).toMatch(/not enough stock \(2 remaining\)/);
  });

  it('skips the stock check when backorders are allowed', async () => {
    const s = new Shopper(t);
    const d = await s.ok(ADD, { productId: ids['yagi-antenna'], quantity: 5 });
    expect(d.addToCart.cartItem.quantity).toBe(5);
  });
});

describe('updateItemQuantities, removeItemsFromCart and emptyCart', () => {
  it('sets a quantity, removes a line with 0, and refuses unknown keys', async () => {
    const s = new Shopper(t);
    const a = await s.ok(ADD, { productId: ids['omni-antenna'] });
    await s.ok(ADD, { productId: ids['bravo-outdoor-gateway'] });
    const key = a.addToCart.cartItem.key;
    const u = await s.ok(QTY, { key, quantity: 4 });
    expect(u.updateItemQuantities.cart.contents.nodes.find((n: any) => n.key === key).quantity).toBe(4);
    expect(u.updateItemQuantities.cart.contents.itemCount).toBe(5);
    const r = await s.ok(QTY, { key, quantity: 0 });
    expect(r.updateItemQuantities.cart.contents.nodes.map((n: any) => n.key)).not.toContain(key);
    expect(r.updateItemQuantities.cart.contents.itemCount).toBe(1);
    expect(await s.fails(QTY, { key: 'no-such-key', quantity: 1 })).toBe(
      'Cart items identified with keys no-such-key failed to update',
    );
    expect(await s.fails(QTY, { key, quantity: -1 })).toBe('Provided "items" invalid');
    expect(await s.fails('mutation { updateItemQuantities(input: { items: [] }) { cart { isEmpty } } }')).toBe(
      'No item data provided',
    );
  });

  it('removeItemsFromCart removes by key or all', async () => {
    const s = new Shopper(t);
    const a = await s.ok(ADD, { productId: ids['omni-antenna'] });
    await s.ok(ADD, { productId: ids['bravo-outdoor-gateway'] });
    const rm =
      'mutation rm($keys: [ID], $all: Boolean) { removeItemsFromCart(input: { keys: $keys, all: $all }) { cartItems { key } cart { isEmpty contents { itemCount } } } }';
    expect(await s.fails(rm, { keys: ['nope'] })).toBe('No cart item found with the key: nope');
    const d = await s.ok(rm, { keys: [a.addToCart.cartItem.key] });
    expect(d.removeItemsFromCart.cartItems).toEqual([{ key: a.addToCart.cartItem.key }]);
    expect(d.removeItemsFromCart.cart.contents.itemCount).toBe(1);
    expect((await s.ok(rm, { all: true })).removeItemsFromCart.cart.isEmpty).toBe(true);
    expect(await s.fails(rm, { all: true })).toBe('No items in cart to remove.');
  });

  it('emptyCart empties the cart (storefront document) and then says it is empty', async () => {
    const s = new Shopper(t);
    await s.ok(ADD, { productId: ids['omni-antenna'] });
    const d = await s.ok(EMPTY);
    expect(d.emptyCart.cart.isEmpty).toBe(true);
    expect(d.emptyCart.cart.contents.itemCount).toBe(0);
    expect(d.emptyCart.cart.appliedCoupons).toBeNull();
    expect(await s.fails(EMPTY)).toBe('Cart is empty');
  });
});

describe('shipping and tax', () => {
  it('computes tax per line in cents, rounded half up, and free shipping above the threshold (DE, 19%)', async () => {
    const s = new Shopper(t);
    await s.ok(ADD, { productId: ids['omni-antenna'], quantity: 3 }); // 3 × 49.90 (sale) = 149.70 incl. VAT
    const c = (await s.ok(CART)).cart;
    expect(c.rawSubtotal).toBe('125.8');
    expect(c.rawTotalTax).toBe('23.9'); // 149.70 × 19/119 = 23.897
    expect(c.chosenShippingMethods).toEqual(['free_shipping:2']);
    expect(c.rawShippingTotal).toBe('0');
    expect(c.rawTotal).toBe('149.7');
    expect(c.total).toBe('€149.70');
    expect(c.availableShippingMethods[0].rates.map((r: any) => r.id)).toEqual([
      'free_shipping:2',
      'flat_rate:1',
      'local_pickup:3',
    ]);
    expect(c.availableShippingMethods[0].packageDetails).toBe('Omni Antenna 5 dBi ×3');
  });

  it('charges the flat rate below the threshold and taxes shipping too; updateShippingMethod switches rates', async () => {
    const s = new Shopper(t);
    await s.ok(ADD, {
      productId: ids['mesh-hoodie'],
      variation: [
        { attributeName: 'pa_color', attributeValue: 'black' },
        { attributeName: 'pa_size', attributeValue: 's' },
      ],
    }); // 49.00 incl. VAT
    let c = (await s.ok(CART)).cart;
    expect(c.chosenShippingMethods).toEqual(['flat_rate:1']);
    expect(c.rawShippingTotal).toBe('4.12'); // shipping is entered without tax, as WooCommerce's rates
    expect(c.rawShippingTax).toBe('0.78'); // 4.12 × 19% = 0.7828
    expect(c.availableShippingMethods[0].rates.find((r: any) => r.id === 'flat_rate:1').cost).toBe('€4.90');
    expect(c.rawTotalTax).toBe('8.6'); // 7.82 (49 × 19/119 = 7.824) + 0.78
    expect(c.rawTotal).toBe('53.9'); // 49 + 4.12 + 0.78
    const d = await s.ok(SHIP, { shippingMethods: ['local_pickup:3'] });
    c = d.updateShippingMethod.cart;
    expect(c.chosenShippingMethods).toEqual(['local_pickup:3']);
    expect(c.rawShippingTotal).toBe('0');
    expect(c.rawTotal).toBe('49');
    expect(await s.fails(SHIP, { shippingMethods: ['free_shipping:2'] })).toBe(
      '"free_shipping:2" is not an available shipping method for shipping package "Mesh Hoodie - Black, S ×1"',
    );
    expect(await s.fails(SHIP, { shippingMethods: ['flat_rate:1', 'flat_rate:1'] })).toBe(
      'No shipping packages available for corresponding index 1',
    );
    expect(await s.fails(SHIP, { shippingMethods: [] })).toBe('No shipping method provided');
  });

  it('recalculates rates and tax when the address changes (ChangeShippingCounty): EU zone and VAT, rest of the world without tax', async () => {
    const s = new Shopper(t);
    await s.ok(ADD, {
      productId: ids['mesh-hoodie'],
      variation: [
        { attributeName: 'pa_color', attributeValue: 'black' },
        { attributeName: 'pa_size', attributeValue: 'm' },
      ],
    }); // 49.00
    const fr = await s.ok(COUNTRY, { shippingCountry: 'FR', billingCountry: 'FR' });
    expect(fr.updateCustomer.customer).toMatchObject({
      hasCalculatedShipping: true,
      calculatedShipping: true,
      shipping: { country: 'FR' },
      billing: { country: 'FR' },
    });
    let c = (await s.ok(CART)).cart;
    expect(c.availableShippingMethods[0].rates.map((r: any) => r.id)).toEqual(['flat_rate:4']);
    expect(c.rawShippingTotal).toBe('9.9');
    // 49.00 / 1.19 × 1.20 = 49.41 (49.4117) including 8.24 VAT (8.235); 9.90 × 20% = 1.98.
    expect(c.rawTotalTax).toBe('10.22');
    expect(c.rawTotal).toBe('61.29');
    await s.ok(COUNTRY, { shippingCountry: 'US', shippingState: 'CA', billingCountry: 'US', billingState: 'CA' });
    c = (await s.ok(CART)).cart;
    expect(c.chosenShippingMethods).toEqual(['flat_rate:6']);
    expect(c.rawShippingTotal).toBe('24.9');
    expect(c.rawTotalTax).toBe('0');
    expect(c.rawTotal).toBe('66.08'); // 49.00 / 1.19 = 41.18 without VAT, + 24.90
  });

  it('a cart of virtual products needs no shipping', async () => {
    const s = new Shopper(t);
    await s.ok(ADD, { productId: ids['mesh-os'] });
    const c = (await s.ok(CART)).cart;
    expect(c.needsShippingAddress).toBe(false);
    expect(c.availableShippingMethods).toEqual([]);
    expect(c.chosenShippingMethods).toEqual([]);
    expect(c.rawTotal).toBe('19'); // including 3.03 VAT (19 × 19/119 = 3.034)
    expect(c.rawTotalTax).toBe('3.03');
  });
});

describe('sessions', () => {
  it('serialises concurrent mutations of one session: no update is lost', async () => {
    const s = new Shopper(t);
    await s.ok(ADD, { productId: ids['omni-antenna'] });
    const token = s.token!;
    await Promise.all(
      Array.from({ length: 15 }, () =>
        t.gql(ADD, { productId: ids['omni-antenna'] }, { 'woocommerce-session': `Session ${token}` }),
      ).map(async (p) => {
        const r = await p;
        expect(r.body.errors).toBeUndefined();
      }),
    );
    const c = (await s.ok(CART)).cart;
    expect(c.contents.nodes[0].quantity).toBe(16);
  });

  it('cart and cart mutations report an invalid session token', async () => {
    const r = await t.gql(CART, {}, { 'woocommerce-session': 'Session not.a.token' });
    expect(r.body.errors?.[0]?.message).toMatch(/^invalid_token: /);
    const m = await t.gql(ADD, { productId: ids['omni-antenna'] }, { 'woocommerce-session': 'Session abc' });
    expect(m.body.errors?.[0]?.message).toBe('invalid_token: Wrong number of segments');
  });

  it('a fresh session sees an empty cart and gets a token', async () => {
    const r = await t.gql(CART);
    expect(r.body.data.cart).toMatchObject({
      isEmpty: true,
      rawTotal: '0',
      appliedCoupons: null,
      contents: { itemCount: 0, productCount: 0, nodes: [] },
    });
    expect(r.headers.get('woocommerce-session')).toBeTruthy();
  });
});
