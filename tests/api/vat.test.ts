// Prices that include VAT, as an EU shop shows them: a product entered at €119.00 (gross, German VAT) costs
// €119.00 in Germany, €120.00 in France (net €100.00 + 20%), €100.00 in Switzerland and for a business whose
// VAT is reverse charged — to the cent, the same in the cart, the placed order and the confirmation mail.
// Business customers' VAT IDs: checked for their format, then with VIES (a local stand-in speaking its
// REST protocol): confirmed, not answering (the order is taken and flagged), refusing, malformed.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpCounter } from '../../src/server/db/meta.ts';
import { lineDisplay, totalsRows } from '../../src/islands/cart/cart-view.ts';
import { lineAmount, orderTotalRows } from '../../src/islands/order/order-view.ts';
import { startViesServer, type ViesServer } from '../fixtures/vies-server.ts';
import { startAdminEngine, type AdminTestEngine } from './admin-helpers.ts';
import { headersOf, newCustomer, register } from './accounts-helpers.ts';
import { BILLING, operation, productId, setStock, Shopper, stockOf } from './shop-helpers.ts';

let t: AdminTestEngine;
let vies: ViesServer;
let yagi: number;
let cable: number;

const ADD = operation('addToCart');
const GET_CART = operation('getCart');
const COUNTRY = operation('ChangeShippingCounty');
const VAT_ID = operation('UpdateVatId');
const CHECKOUT = operation('Checkout');

const VIES_TIMEOUT_MS = 800;

beforeAll(async () => {
  vies = await startViesServer();
  Object.assign(process.env, { VIES_URL: vies.url, VIES_TIMEOUT_MS: String(VIES_TIMEOUT_MS) });
  t = await startAdminEngine();
  yagi = await productId(t, 'yagi-antenna');
  cable = await productId(t, 'n-type-cable');
  // The example price of a German shop: €119.00 including 19% VAT (€100.00 net).
  await t.engine.database.db.transaction(async (tx) => {
    await tx.execute(sql`update catalog_products set regular_price_cents = 11900 where slug = 'yagi-antenna'`);
    await bumpCounter(tx, 'catalog_version');
  });
  t.engine.catalog.invalidate();
  await setStock(t, 'n-type-cable', 100);
}, 300_000);

afterAll(async () => {
  await t?.close();
  await vies?.stop();
});

const ADDRESSES = {
  DE: BILLING,
  FR: {
    firstName: 'Jeanne',
    lastName: 'Martin',
    address1: '12 rue de la Paix',
    city: 'Paris',
    postcode: '75002',
    country: 'FR',
  },
  CH: {
    firstName: 'Urs',
    lastName: 'Meier',
    address1: 'Bahnhofstrasse 1',
    city: 'Zürich',
    postcode: '8001',
    country: 'CH',
  },
} as const;

let mailbox = 0;
/** A billing address of a country, with an e-mail address of its own (the mail is read back by it). */
function billingIn(country: keyof typeof ADDRESSES, extra: Record<string, string> = {}) {
  mailbox++;
  return { ...ADDRESSES[country], email: `vat-${country.toLowerCase()}-${mailbox}@example.com`, ...extra };
}

async function shopper(lines: [number, number][], country?: string): Promise<Shopper> {
  const s = new Shopper(t);
  for (const [id, quantity] of lines) await s.ok(ADD, { productId: id, quantity });
  if (country) await s.ok(COUNTRY, { shippingCountry: country, billingCountry: country });
  return s;
}

const cents = (raw: string | null | undefined) => Math.round(Number(raw ?? '0') * 100);

/** The cart's figures in cents, and what the storefront shows of them (its own helpers on the engine's answer). */
async function cartFigures(s: Shopper) {
  const { cart, customer } = await s.ok(GET_CART);
  const line = cart.contents.nodes[0];
  return {
    lineNet: cents(line.rawSubtotal),
    lineTax: cents(line.rawSubtotalTax),
    subtotalNet: cents(cart.rawSubtotal),
    subtotalTax: cents(cart.rawSubtotalTax),
    shippingNet: cents(cart.rawShippingTotal),
    shippingTax: cents(cart.rawShippingTax),
    total: cents(cart.rawTotal),
    totalTax: cents(cart.rawTotalTax),
    shown: {
      line: lineDisplay(line, cart.displayPricesIncludeTax).amount,
      unit: lineDisplay(line, cart.displayPricesIncludeTax).unit,
      totals: totalsRows(cart),
    },
    rates: cart.availableShippingMethods[0]?.rates.map((r: { id: string; cost: string }) => `${r.id} ${r.cost}`),
    displayPricesIncludeTax: cart.displayPricesIncludeTax,
    isVatExempt: customer.isVatExempt,
  };
}

async function confirmationMail(email: string, orderId: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mail = await t.engine.commerceMailer.readOutbox({ to: email, subject: String(orderId) });
    if (mail.length) return mail[0]!.text;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no confirmation mail for order ${orderId}`);
}

async function place(s: Shopper, billing: Record<string, string>) {
  const d = await s.ok(CHECKOUT, { paymentMethod: 'cod', billing });
  const order = d.checkout.order;
  return {
    order,
    row: (await t.engine.orders.get(order.databaseId))!,
    items: await t.engine.orders.items(order.databaseId),
    mail: await confirmationMail(billing.email!, order.databaseId),
  };
}

describe('catalog prices', () => {
  it('shows the entered gross price for the base country (RAW the same amount)', async () => {
    const d = await t.data(
      `{ product(id: "yagi-antenna", idType: SLUG) { ... on SimpleProduct { price rawPrice: price(format: RAW) regularPrice } } }`,
    );
    expect(d.product).toEqual({ price: '€119.00', rawPrice: '119', regularPrice: '€119.00' });
  });
});

describe('prices for the destination, identical in cart, order and confirmation mail', () => {
  it('Germany: €119.00 stays €119.00 (€100.00 + €19.00 VAT), free shipping from €50', async () => {
    const s = await shopper([[yagi, 1]]);
    const cart = await cartFigures(s);
    expect(cart).toMatchObject({
      lineNet: 10000,
      lineTax: 1900,
      subtotalNet: 10000,
      subtotalTax: 1900,
      shippingNet: 0,
      shippingTax: 0,
      total: 11900,
      totalTax: 1900,
      displayPricesIncludeTax: true,
      isVatExempt: false,
    });
    expect(cart.shown.line).toBe('€119.00');
    expect(cart.shown.unit).toBe('€119.00');
    expect(cart.shown.totals).toEqual([
      { key: 'subtotal', value: '€119.00' },
      { key: 'shipping', value: '€0.00' },
      { key: 'total', value: '€119.00' },
      { key: 'includedTax', value: '€19.00' },
    ]);
    const billing = billingIn('DE');
    const { order, row, items, mail } = await place(s, billing);
    expect(order).toMatchObject({ rawTotal: '119', total: '€119.00', totalTax: '€19.00', pricesIncludeTax: true });
    expect(orderTotalRows(order)).toEqual(cart.shown.totals);
    expect(lineAmount(order.lineItems.nodes[0], order.pricesIncludeTax)).toBe('€119.00');
    expect(
      items.map((i) => [i.totalCents, i.taxRateBasisPoints, i.totalTaxCents, i.totalGrossCents, i.unitPriceCents]),
    ).toEqual([[10000, 1900, 1900, 11900, 11900]]);
    expect(row).toMatchObject({ pricesIncludeTax: true, vatId: null, vatReverseCharge: false, vatIdUnverified: false });
    expect(mail).toContain('1 × Yagi Directional Antenna  €119.00');
    expect(mail).toContain('Subtotal: €119.00');
    expect(mail).toContain('Total: €119.00 (includes €19.00 VAT)');
    expect(mail).not.toMatch(/^Tax:/m);
  });

  it('Germany, under the free-shipping minimum: 3 × €12.50 + the flat rate €4.90 (€4.12 net + 19%)', async () => {
    const s = await shopper([[cable, 3]]);
    const cart = await cartFigures(s);
    // 37.50 includes 5.99 VAT (5.987 rounded for the line); shipping 4.12 + 0.78 (0.7828) = 4.90.
    expect(cart).toMatchObject({
      lineNet: 3151,
      lineTax: 599,
      shippingNet: 412,
      shippingTax: 78,
      total: 4240,
      totalTax: 677,
    });
    expect(cart.rates).toContain('flat_rate:1 €4.90');
    expect(cart.shown.totals).toEqual([
      { key: 'subtotal', value: '€37.50' },
      { key: 'shipping', value: '€4.90' },
      { key: 'total', value: '€42.40' },
      { key: 'includedTax', value: '€6.77' },
    ]);
    expect(cart.shown.unit).toBe('€12.50');
    const billing = billingIn('DE');
    const { order, mail } = await place(s, billing);
    expect(order).toMatchObject({ rawTotal: '42.4', totalTax: '€6.77', shippingTotal: '€4.12' });
    expect(orderTotalRows(order)).toEqual(cart.shown.totals);
    expect(mail).toContain('3 × N-Type Low-Loss Cable  €37.50');
    expect(mail).toContain('Shipping (Flat rate): €4.90');
    expect(mail).toContain('Total: €42.40 (includes €6.77 VAT)');
  });

  it('France: the net price plus 20% (€119.00 → €120.00), free EU shipping from €100', async () => {
    const s = await shopper([[yagi, 1]], 'FR');
    const cart = await cartFigures(s);
    expect(cart).toMatchObject({ lineNet: 10000, lineTax: 2000, shippingNet: 0, total: 12000, totalTax: 2000 });
    expect(cart.shown.totals).toEqual([
      { key: 'subtotal', value: '€120.00' },
      { key: 'shipping', value: '€0.00' },
      { key: 'total', value: '€120.00' },
      { key: 'includedTax', value: '€20.00' },
    ]);
    const billing = billingIn('FR');
    const { order, items, mail } = await place(s, billing);
    expect(order).toMatchObject({ rawTotal: '120', totalTax: '€20.00' });
    expect(orderTotalRows(order)).toEqual(cart.shown.totals);
    expect(items.map((i) => [i.totalCents, i.taxRateBasisPoints, i.totalTaxCents, i.totalGrossCents])).toEqual([
      [10000, 2000, 2000, 12000],
    ]);
    expect(mail).toContain('1 × Yagi Directional Antenna  €120.00');
    expect(mail).toContain('Total: €120.00 (includes €20.00 VAT)');
  });

  it('France, rounded per unit and per line: 3 × €12.61 with €9.90 + 20% shipping', async () => {
    const s = await shopper([[cable, 3]], 'FR');
    const cart = await cartFigures(s);
    // 12.50 / 1.19 × 1.20 = 12.605… → 12.61 a unit; 37.83 includes 6.305 → 6.31 VAT; shipping 9.90 + 1.98.
    expect(cart).toMatchObject({
      lineNet: 3152,
      lineTax: 631,
      shippingNet: 990,
      shippingTax: 198,
      total: 4971,
      totalTax: 829,
    });
    expect(cart.shown.unit).toBe('€12.61');
    expect(cart.shown.line).toBe('€37.83');
    const billing = billingIn('FR');
    const { order, mail } = await place(s, billing);
    expect(order).toMatchObject({ rawTotal: '49.71', totalTax: '€8.29' });
    expect(orderTotalRows(order)).toEqual(cart.shown.totals);
    expect(mail).toContain('Total: €49.71 (includes €8.29 VAT)');
  });

  it('Switzerland (no EU VAT): the net price €100.00, the international flat rate without tax', async () => {
    const s = await shopper([[yagi, 1]], 'CH');
    const cart = await cartFigures(s);
    expect(cart).toMatchObject({
      lineNet: 10000,
      lineTax: 0,
      shippingNet: 2490,
      shippingTax: 0,
      total: 12490,
      totalTax: 0,
    });
    expect(cart.shown.totals).toEqual([
      { key: 'subtotal', value: '€100.00' },
      { key: 'shipping', value: '€24.90' },
      { key: 'total', value: '€124.90' },
    ]);
    const billing = billingIn('CH');
    const { order, items, mail } = await place(s, billing);
    expect(order).toMatchObject({ rawTotal: '124.9', totalTax: '€0.00' });
    expect(orderTotalRows(order)).toEqual(cart.shown.totals);
    expect(items.map((i) => [i.totalCents, i.taxRateBasisPoints, i.totalTaxCents])).toEqual([[10000, 0, 0]]);
    expect(mail).toContain('1 × Yagi Directional Antenna  €100.00');
    expect(mail).toContain('Total: €124.90');
    expect(mail).not.toContain('includes');
  });

  it('a French business with a VAT ID VIES confirms: reverse charge, €100.00 net, recorded for the invoice', async () => {
    const s = await shopper([[yagi, 1]], 'FR');
    const checked = await s.ok(VAT_ID, { billingCountry: 'FR', vatId: 'fr 40 303 265 045' });
    expect(checked.updateCustomer.customer).toMatchObject({ isVatExempt: true, billing: { vatId: 'FR40303265045' } });
    const cart = await cartFigures(s);
    expect(cart).toMatchObject({
      lineNet: 10000,
      lineTax: 0,
      shippingNet: 0,
      total: 10000,
      totalTax: 0,
      isVatExempt: true,
    });
    expect(cart.shown.totals).toEqual([
      { key: 'subtotal', value: '€100.00' },
      { key: 'shipping', value: '€0.00' },
      { key: 'total', value: '€100.00' },
    ]);
    const billing = billingIn('FR', { company: 'SA Sodimas', vatId: 'FR40303265045' });
    const { order, row, items, mail } = await place(s, billing);
    expect(order).toMatchObject({
      rawTotal: '100',
      totalTax: '€0.00',
      vatId: 'FR40303265045',
      vatReverseCharge: true,
      billing: { vatId: 'FR40303265045' },
    });
    expect(orderTotalRows(order)).toEqual(cart.shown.totals);
    expect(row).toMatchObject({ vatId: 'FR40303265045', vatReverseCharge: true, vatIdUnverified: false });
    expect(row.vatNote).toMatch(/reverse charge/i);
    expect(row.vatCheck).toMatchObject({ status: 'valid', name: 'SA SODIMAS', country: 'FR' });
    expect(row.taxLines).toEqual([]);
    expect(
      items.map((i) => [i.totalCents, i.taxRateBasisPoints, i.totalTaxCents, i.totalGrossCents, i.unitPriceCents]),
    ).toEqual([[10000, 0, 0, 10000, 10000]]);
    const notes = (await t.engine.orders.notes(row.id)).map((n) => n.note);
    expect(notes.some((n) => /VAT ID FR40303265045 confirmed by VIES \(consultation number WAPIAAAAW/.test(n))).toBe(
      true,
    );
    expect(mail).toContain('1 × Yagi Directional Antenna  €100.00');
    expect(mail).toContain('Total: €100.00');
    expect(mail).toContain('VAT ID: FR40303265045');
    expect(mail).toMatch(/VAT reverse charge/);
  });

  it('a German business with a VAT ID pays German VAT like everyone else', async () => {
    const s = await shopper([[yagi, 1]], 'DE');
    const checked = await s.ok(VAT_ID, { billingCountry: 'DE', vatId: 'DE136695976' });
    expect(checked.updateCustomer.customer.isVatExempt).toBe(false);
    const cart = await cartFigures(s);
    expect(cart).toMatchObject({ total: 11900, totalTax: 1900, isVatExempt: false });
    const { order, row } = await place(s, billingIn('DE', { vatId: 'DE136695976' }));
    expect(order).toMatchObject({ rawTotal: '119', totalTax: '€19.00', vatId: 'DE136695976', vatReverseCharge: false });
    expect(row).toMatchObject({ vatReverseCharge: false, vatIdUnverified: false, vatNote: null });
  });
});

describe('VAT IDs and VIES', () => {
  it('asks VIES with the prefix and the number apart, as its REST API takes them', () => {
    expect(vies.requests).toContainEqual({
      countryCode: 'FR',
      vatNumber: '40303265045',
      contentType: 'application/json',
    });
  });

  it('VIES not answering: the order is taken with the reverse charge and flagged for the operator', async () => {
    vies.setMode('silent');
    try {
      const s = await shopper([[yagi, 1]], 'AT');
      const started = Date.now();
      const checked = await s.ok(VAT_ID, { billingCountry: 'AT', vatId: 'ATU13585627' });
      expect(Date.now() - started).toBeLessThan(VIES_TIMEOUT_MS + 5000);
      expect(checked.updateCustomer.customer.isVatExempt).toBe(true);
      const cart = await cartFigures(s);
      // AT 20%: 119.00 / 1.19 = 100.00 net, no VAT for the business.
      expect(cart).toMatchObject({ total: 10000, totalTax: 0 });
      const billing = {
        firstName: 'Anna',
        lastName: 'Huber',
        address1: 'Ringstrasse 1',
        city: 'Wien',
        postcode: '1010',
        country: 'AT',
        email: 'vat-at-timeout@example.com',
        vatId: 'ATU13585627',
      };
      const { order, row } = await place(s, billing);
      expect(order).toMatchObject({ rawTotal: '100', vatReverseCharge: true, vatId: 'ATU13585627' });
      expect(row.vatIdUnverified).toBe(true);
      expect(row.vatCheck).toMatchObject({ status: 'unverified', reason: 'TIMEOUT' });
      const notes = (await t.engine.orders.notes(row.id)).map((n) => n.note);
      expect(notes).toContain('VAT ID ATU13585627 could not be checked with VIES (TIMEOUT): check it before shipping.');
      // The operator sees the flag in the admin's order list and on the order.
      const listed = (await t.ok('adminOrders', { first: 50 })).adminOrders.nodes;
      expect(listed.find((o: { id: number }) => o.id === row.id)).toMatchObject({ vatIdUnverified: true });
      expect((await t.ok('adminOrder', { id: row.id })).adminOrder).toMatchObject({
        vatId: 'ATU13585627',
        vatIdUnverified: true,
        vatReverseCharge: true,
        totalTaxCents: 0,
        totalCents: 10000,
        items: [expect.objectContaining({ taxRateBasisPoints: 0, totalGrossCents: 10000, unitPriceCents: 10000 })],
      });
    } finally {
      vies.setMode('up');
    }
  });

  it('a member state VIES reports as unavailable: unverified too, with the reason', async () => {
    vies.setMode('unavailable');
    try {
      const s = await shopper([[yagi, 1]], 'FR');
      // A number VIES has not confirmed before (a confirmation is answered from memory for a day).
      const { order, row } = await place(s, billingIn('FR', { vatId: 'FR83404833048' }));
      expect(order).toMatchObject({ rawTotal: '100', vatReverseCharge: true });
      expect(row).toMatchObject({
        vatIdUnverified: true,
        vatCheck: expect.objectContaining({ reason: 'MS_UNAVAILABLE' }),
      });
    } finally {
      vies.setMode('up');
    }
  });

  it('a VAT ID VIES says is not valid: refused with its code; the cart, the address and the stock stay', async () => {
    const s = await shopper([[yagi, 1]], 'FR');
    const before = await stockOf(t, 'yagi-antenna');
    const r = await s.gql(VAT_ID, { billingCountry: 'FR', vatId: 'FR83404833048' });
    expect(r.body.errors?.[0]).toMatchObject({
      message:
        "The VAT ID FR83404833048 is not valid according to the EU's VIES service. Please check it, or remove it to order with VAT.",
      extensions: { code: 'VAT_ID_REJECTED' },
    });
    const cart = await cartFigures(s);
    expect(cart).toMatchObject({ total: 12000, totalTax: 2000, isVatExempt: false });
    const placed = await s.gql(CHECKOUT, {
      paymentMethod: 'cod',
      billing: billingIn('FR', { vatId: 'FR83404833048' }),
    });
    expect(placed.body.errors?.[0]?.extensions?.code).toBe('VAT_ID_REJECTED');
    const { cart: after, customer } = await s.ok(GET_CART);
    expect(after.contents.itemCount).toBe(1);
    expect(customer.billing).toMatchObject({ country: 'FR', vatId: '' });
    expect(await stockOf(t, 'yagi-antenna')).toBe(before);
    // Without the VAT ID the same cart orders with French VAT.
    const { order } = await place(s, billingIn('FR'));
    expect(order).toMatchObject({ rawTotal: '120', vatId: null });
  });

  it('a malformed VAT ID or one of another country: a clear error before VIES is asked, nothing lost', async () => {
    const s = await shopper([[yagi, 2]], 'FR');
    const asked = vies.requests.length;
    const bad = await s.gql(VAT_ID, { billingCountry: 'FR', vatId: 'FR12345678901' });
    expect(bad.body.errors?.[0]).toMatchObject({
      message:
        'FR12345678901 is not a valid VAT ID. Please check it (it starts with the country code, e.g. DE123456789).',
      extensions: { code: 'VAT_ID_INVALID' },
    });
    const other = await s.gql(VAT_ID, { billingCountry: 'FR', vatId: 'DE136695976' });
    expect(other.body.errors?.[0]?.extensions?.code).toBe('VAT_ID_COUNTRY_MISMATCH');
    const outside = await s.gql(VAT_ID, { billingCountry: 'CH', vatId: 'CHE116281710' });
    expect(outside.body.errors?.[0]?.extensions?.code).toBe('VAT_ID_NOT_EU');
    const atCheckout = await s.gql(CHECKOUT, { paymentMethod: 'cod', billing: billingIn('FR', { vatId: 'FR 1234' }) });
    expect(atCheckout.body.errors?.[0]?.extensions?.code).toBe('VAT_ID_INVALID');
    expect(vies.requests.length).toBe(asked);
    const cart = await cartFigures(s);
    expect(cart).toMatchObject({ total: 24000, totalTax: 4000 });
  });
});

describe('the VAT ID in the account', () => {
  const UPDATE = operation('UpdateCustomer');
  const address = {
    firstName: 'Jeanne',
    lastName: 'Martin',
    company: 'SA Sodimas',
    address1: '12 rue de la Paix',
    city: 'Paris',
    postcode: '75002',
    country: 'FR',
  };

  it('is saved with the billing address once VIES confirms it, and prices the customer’s cart without VAT', async () => {
    const c = await register(t, newCustomer('vat'));
    const h = headersOf({ authToken: c.authToken, sessionToken: c.sessionToken });
    const r = await t.gql(UPDATE, { input: { billing: { ...address, vatId: 'FR 40303265045' } } }, h);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.updateCustomer.customer).toMatchObject({
      isVatExempt: true,
      billing: { vatId: 'FR40303265045', country: 'FR' },
    });
    expect((await t.engine.accounts.customers.get(c.userId))!.billing.vatId).toBe('FR40303265045');
    await t.gql(ADD, { productId: yagi, quantity: 1 }, h);
    const { cart } = (await t.gql(GET_CART, {}, h)).body.data;
    expect(cart).toMatchObject({ rawTotal: '100', rawTotalTax: '0' });
  });

  it('one VIES refuses is not saved: the account keeps what it had', async () => {
    const c = await register(t, newCustomer('vat'));
    const h = headersOf({ authToken: c.authToken, sessionToken: c.sessionToken });
    const r = await t.gql(UPDATE, { input: { billing: { ...address, vatId: 'FR83404833048' } } }, h);
    expect(r.body.errors?.[0]?.extensions?.code).toBe('VAT_ID_REJECTED');
    const saved = (await t.engine.accounts.customers.get(c.userId))!.billing;
    expect(saved.vatId ?? '').toBe('');
    expect(saved.address1).toBe('');
  });
});
