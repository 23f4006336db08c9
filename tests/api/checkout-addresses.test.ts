// Addresses and shipping at checkout, as a shopper meets them: the country the shop assumes before the
// shopper names one (the base country, or a logged-in customer's saved address) is the one the cart
// estimates for; a state is required only where the country's rules say so; free shipping is chosen
// when it becomes available and the chosen rate is always one the cart offers; a logged-in customer's
// addresses are saved with the order and come back next time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersOf, login, newCustomer, register } from './accounts-helpers.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { addCoupons, BILLING, CART, operation, productId, setStock, Shopper } from './shop-helpers.ts';

let t: TestEngine;
let cable: number;
let antenna: number;
beforeAll(async () => {
  t = await startTestEngine();
  cable = await productId(t, 'n-type-cable'); // 12.50
  antenna = await productId(t, 'omni-antenna'); // 59.90
  // Enough for every cart here, whatever the fixture holds.
  await setStock(t, 'n-type-cable', 10_000);
  await setStock(t, 'omni-antenna', 10_000);
  await addCoupons(t, [{ code: 'addresses10', discountType: 'percent', amount: '10' }]);
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const ADD = operation('addToCart');
const CHECKOUT = operation('Checkout');
const GET_CART = operation('getCart');
const QTY = operation('UpDateCartQuantity');
const SHIP = operation('ChangeShippingMethod');
const COUNTRY = operation('ChangeShippingCounty');

const VIRGINIA = {
  firstName: 'Grace',
  lastName: 'Hopper',
  address1: '1000 N Glebe Rd',
  city: 'Arlington',
  state: 'VA',
  postcode: '22201',
  country: 'US',
  phone: '+1 703 555 0100',
};

async function cartWith(s: Shopper, product: number, quantity: number) {
  const d = await s.ok(ADD, { productId: product, quantity });
  return d.addToCart.cartItem.key as string;
}

const shipping = async (s: Shopper) => {
  const c = (await s.ok(CART)).cart;
  return { chosen: c.chosenShippingMethods[0], offered: c.availableShippingMethods[0].rates.map((r: any) => r.id) };
};

describe('the country before the shopper names one', () => {
  it('is the shop’s base country, for the customer the checkout prefills and the cart’s estimate alike', async () => {
    const s = new Shopper(t);
    await cartWith(s, cable, 2);
    const d = await s.ok(GET_CART);
    // The checkout prefills from `customer`; the drawer shows `cart`: both for Germany.
    expect(d.customer.billing.country).toBe('DE');
    expect(d.customer.shipping.country).toBe('DE');
    expect(d.cart.chosenShippingMethods).toEqual(['flat_rate:1']);
    expect(d.cart.availableShippingMethods[0].rates.map((r: any) => r.id)).toContain('local_pickup:3');
  });
});

describe('states and postcodes per country', () => {
  it('accepts a German order without a state', async () => {
    const s = new Shopper(t);
    await cartWith(s, cable, 1);
    const r = await s.gql(CHECKOUT, { paymentMethod: 'cod', billing: { ...BILLING, state: '' } });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.checkout.order.billing).toMatchObject({ country: 'DE', state: '' });
  });

  it('refuses a US order without a state, naming the field as the US does', async () => {
    const s = new Shopper(t);
    await cartWith(s, cable, 1);
    const message = await s.fails(CHECKOUT, {
      paymentMethod: 'cod',
      billing: { ...VIRGINIA, state: '', email: 'grace@example.com' },
    });
    expect(message).toBe('Billing State is a required field.');
    expect(
      await s.fails(CHECKOUT, {
        paymentMethod: 'cod',
        billing: { ...VIRGINIA, postcode: '', email: 'grace@example.com' },
      }),
    ).toBe('Billing ZIP Code is a required field.');
    expect((await s.ok('query { cart { isEmpty } }')).cart.isEmpty).toBe(false);
  });

  it('asks no postcode in Ireland and an Italian province by its name', async () => {
    const s = new Shopper(t);
    await cartWith(s, cable, 1);
    const irish = { ...BILLING, city: 'Dublin', postcode: '', country: 'IE' };
    const ok = await s.gql(CHECKOUT, { paymentMethod: 'cod', billing: irish });
    expect(ok.body.errors).toBeUndefined();
    const s2 = new Shopper(t);
    await cartWith(s2, cable, 1);
    const italian = { ...BILLING, city: 'Roma', postcode: '00186', country: 'IT' };
    expect(await s2.fails(CHECKOUT, { paymentMethod: 'cod', billing: { ...italian, state: '' } })).toBe(
      'Billing Province is a required field.',
    );
  });
});

describe('the chosen shipping rate when the cart changes', () => {
  it('switches to free shipping when the cart reaches the free-shipping amount, and back when it no longer does', async () => {
    const s = new Shopper(t);
    const key = await cartWith(s, cable, 1);
    expect(await shipping(s)).toEqual({ chosen: 'flat_rate:1', offered: ['flat_rate:1', 'local_pickup:3'] });
    // Over the domestic free-shipping amount (€50): free shipping is offered and chosen.
    let c = (await s.ok(QTY, { key, quantity: 8 })).updateItemQuantities.cart;
    expect(c.availableShippingMethods[0].rates.map((r: any) => r.id)).toEqual([
      'free_shipping:2',
      'flat_rate:1',
      'local_pickup:3',
    ]);
    expect(c.chosenShippingMethods).toEqual(['free_shipping:2']);
    expect(c.shippingTotal).toBe('€0.00');
    // Below it again: free shipping is gone, and so is the choice of it.
    c = (await s.ok(QTY, { key, quantity: 1 })).updateItemQuantities.cart;
    expect(c.chosenShippingMethods).toEqual(['flat_rate:1']);
    expect(c.availableShippingMethods[0].rates.map((r: any) => r.id)).not.toContain('free_shipping:2');
  });

  it('keeps a rate the shopper chose while free shipping was offered, and a free local pickup', async () => {
    const s = new Shopper(t);
    const key = await cartWith(s, cable, 8);
    expect((await shipping(s)).chosen).toBe('free_shipping:2');
    await s.ok(SHIP, { shippingMethods: ['flat_rate:1'] });
    await s.ok(QTY, { key, quantity: 9 });
    expect((await shipping(s)).chosen).toBe('flat_rate:1');

    const s2 = new Shopper(t);
    const key2 = await cartWith(s2, cable, 1);
    await s2.ok(SHIP, { shippingMethods: ['local_pickup:3'] });
    await s2.ok(QTY, { key: key2, quantity: 8 });
    expect((await shipping(s2)).chosen).toBe('local_pickup:3');
  });

  it('never keeps a rate the new country does not offer, and the order ships with the rate the cart shows', async () => {
    const s = new Shopper(t);
    await cartWith(s, cable, 1);
    await s.ok(SHIP, { shippingMethods: ['local_pickup:3'] });
    await s.ok(COUNTRY, { shippingCountry: 'FR', billingCountry: 'FR' });
    const fr = await shipping(s);
    expect(fr.offered).toEqual(['flat_rate:4']);
    expect(fr.chosen).toBe('flat_rate:4');
    const order = (
      await s.ok(CHECKOUT, {
        paymentMethod: 'cod',
        billing: { ...BILLING, city: 'Paris', postcode: '75001', country: 'FR' },
        shippingMethod: [fr.chosen],
      })
    ).checkout.order;
    expect(order.shippingTotal).toBe('€9.90');
  });
});

describe('a logged-in customer’s addresses', () => {
  it('are saved on the account with the order, come back from the customer query, and the cart estimates for them', async () => {
    const c = await register(t, newCustomer('returning'));
    const customer = new Shopper(t, headersOf({ authToken: c.authToken }));
    customer.token = c.sessionToken;
    await cartWith(customer, antenna, 1);
    const billing = { ...VIRGINIA, email: c.email };
    const placed = await customer.ok(CHECKOUT, { paymentMethod: 'cod', billing });
    expect(placed.checkout.result).toBe('success');

    const account = await t.engine.accounts.customers.get(c.userId);
    expect(account!.billing).toMatchObject({ ...VIRGINIA, email: c.email });
    expect(account!.shipping).toMatchObject({ address1: '1000 N Glebe Rd', city: 'Arlington', state: 'VA' });

    // Next time: logged in again from a new browser whose guest cart replaces the customer's session.
    const guest = new Shopper(t);
    await cartWith(guest, cable, 1);
    const again = await login(t, c.username, c.password, { 'woocommerce-session': `Session ${guest.token}` });
    expect(again.body.errors).toBeUndefined();
    const next = new Shopper(t, headersOf({ authToken: again.body.data.login.authToken }));
    next.token = again.body.data.login.sessionToken;
    const d = await next.ok(GET_CART);
    expect(d.customer.billing).toMatchObject({ ...VIRGINIA, email: c.email });
    expect(d.customer.shipping).toMatchObject({ address1: '1000 N Glebe Rd', state: 'VA', country: 'US' });
    // The drawer's estimate is for the same country as the prefilled checkout: rest of the world, no tax.
    expect(d.cart.chosenShippingMethods).toEqual(['flat_rate:6']);
    expect(d.cart.totalTax).toBe('€0.00');
  });

  it('keeps the saved address when the checkout only estimates shipping for another country', async () => {
    const c = await register(t, newCustomer('estimate'));
    const customer = new Shopper(t, headersOf({ authToken: c.authToken }));
    customer.token = c.sessionToken;
    await cartWith(customer, cable, 1);
    await customer.ok(CHECKOUT, { paymentMethod: 'cod', billing: { ...BILLING, email: c.email } });
    await cartWith(customer, cable, 1);
    await customer.ok(COUNTRY, { shippingCountry: 'FR', billingCountry: 'FR' });
    expect((await shipping(customer)).chosen).toBe('flat_rate:4');
    const account = await t.engine.accounts.customers.get(c.userId);
    expect(account!.billing).toMatchObject({ address1: 'Hauptstr. 1', country: 'DE' });
  });
});

describe('the order e-mail', () => {
  it('writes the address as the country does and lists lines that add up to the subtotal, the discount apart', async () => {
    const s = new Shopper(t);
    await cartWith(s, antenna, 1);
    await s.ok(operation('applyCoupon'), { code: 'addresses10' });
    const email = `mail-${Date.now()}@example.com`;
    const order = (await s.ok(CHECKOUT, { paymentMethod: 'cod', billing: { ...VIRGINIA, email } })).checkout.order;
    let mail: { text: string }[] = [];
    for (let i = 0; i < 100 && !mail.length; i++) {
      mail = await t.engine.commerceMailer.readOutbox({ to: email, subject: String(order.databaseId) });
      if (!mail.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mail.length).toBe(1);
    const text = mail[0]!.text;
    expect(text).toContain('  Arlington, VA 22201\n  United States');
    const line = /^1 × Omni Antenna[^\n]*?(€[\d,.]+)$/m.exec(text)?.[1];
    const subtotal = /^Subtotal: (€[\d,.]+)$/m.exec(text)?.[1];
    expect(line).toBeDefined();
    expect(line).toBe(subtotal);
    expect(text).toMatch(/^Discount: -€\d/m);
  });
});
