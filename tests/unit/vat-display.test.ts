// Prices as the shopper sees them when the shop shows prices including VAT: the cart's and the order's
// totals ("includes €X VAT" after the total, no tax row), a line's amount and unit price for its destination,
// the note beside catalog prices, the structured data, and the confirmation mail's totals.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CartFragment as Cart } from '../../src/graphql/generated/operations.ts';
import type { CartItem } from '../../src/graphql/shapes.ts';
import { lineDisplay, totalsRows } from '../../src/islands/cart/cart-view.ts';
import TaxNote from '../../src/islands/catalog/TaxNote.tsx';
import { lineAmount, orderTotalRows } from '../../src/islands/order/order-view.ts';
import { buildProductJsonLd } from '../../src/lib/catalog/structured-data.ts';
import { createLookup } from '../../src/lib/i18n/lookup.ts';
import { pickStrings } from '../../src/lib/i18n/index.ts';
import { displayedOrderAmounts } from '../../src/server/checkout/order-display.ts';
import { orderConfirmation } from '../../src/server/mail/templates/index.ts';

// What the engine answers for a German cart: 3 × €12.50 (37.50 incl. 5.99 VAT) and €4.90 + 0.93 shipping.
const line = {
  key: 'a',
  quantity: 3,
  subtotal: '€31.51',
  rawSubtotal: '31.51',
  rawSubtotalTax: '5.99',
  total: '€37.50',
  product: { node: { databaseId: 1, name: 'Cable', price: '€12.50' } },
  variation: null,
} as unknown as CartItem;

const cart = {
  isEmpty: false,
  displayPricesIncludeTax: true,
  subtotal: '€31.51',
  rawSubtotal: '31.51',
  rawSubtotalTax: '5.99',
  discountTotal: '€0.00',
  rawDiscountTotal: '0',
  rawDiscountTax: '0',
  shippingTotal: '€4.90',
  rawShippingTotal: '4.9',
  rawShippingTax: '0.93',
  totalTax: '€6.92',
  rawTotalTax: '6.92',
  total: '€43.33',
  chosenShippingMethods: ['flat_rate:1'],
  availableShippingMethods: [{ packageDetails: 'Cable ×3', rates: [{ id: 'flat_rate:1', cost: '€5.83' }] }],
  appliedCoupons: null,
} as unknown as Cart;

describe('the cart shown including VAT', () => {
  it('shows subtotal and shipping with their VAT and the VAT the total includes, instead of a tax row', () => {
    expect(totalsRows(cart)).toEqual([
      { key: 'subtotal', value: '€37.50' },
      { key: 'shipping', value: '€5.83' },
      { key: 'total', value: '€43.33' },
      { key: 'includedTax', value: '€6.92' },
    ]);
  });

  it('shows the discount with its VAT', () => {
    const discounted = {
      ...cart,
      discountTotal: '€8.40',
      rawDiscountTotal: '8.4',
      rawDiscountTax: '1.6',
      appliedCoupons: [{ code: 'ten' }],
    } as unknown as Cart;
    expect(totalsRows(discounted)).toContainEqual({ key: 'discount', value: '-€10.00' });
  });

  it('has no "includes" row when no VAT is charged (outside the EU, reverse charge)', () => {
    const none = { ...cart, totalTax: '€0.00', rawTotalTax: '0' } as unknown as Cart;
    expect(totalsRows(none).map((r) => r.key)).toEqual(['subtotal', 'shipping', 'total']);
  });

  it('keeps the tax row when the shop shows cart prices without VAT', () => {
    const excl = { ...cart, displayPricesIncludeTax: false } as unknown as Cart;
    expect(totalsRows(excl)).toEqual([
      { key: 'subtotal', value: '€31.51' },
      { key: 'shipping', value: '€4.90' },
      { key: 'tax', value: '€6.92' },
      { key: 'total', value: '€43.33' },
    ]);
  });

  it("shows a line's amount with its VAT and the unit price of the customer's destination", () => {
    expect(lineDisplay(line, true)).toEqual({ amount: '€37.50', unit: '€12.50' });
    expect(lineDisplay(line, false)).toEqual({ amount: '€31.51', unit: '€12.50' });
    // A French customer's unit price comes from the line, not from the catalog's German price.
    const french = { ...line, rawSubtotal: '31.52', rawSubtotalTax: '6.31' } as unknown as CartItem;
    expect(lineDisplay(french, true)).toEqual({ amount: '€37.83', unit: '€12.61' });
  });
});

describe('the order shown as its cart was', () => {
  const order = {
    pricesIncludeTax: true,
    subtotal: '€31.51',
    rawSubtotal: '31.51',
    discountTotal: '€0.00',
    rawDiscountTotal: '0',
    rawDiscountTax: '0',
    shippingTotal: '€4.90',
    rawShippingTotal: '4.9',
    rawShippingTax: '0.93',
    totalTax: '€6.92',
    rawTotalTax: '6.92',
    total: '€43.33',
    lineItems: { nodes: [{ rawSubtotal: '31.51', rawSubtotalTax: '5.99', subtotal: '€31.51' }] },
  };

  it('gives the same rows as the cart', () => {
    expect(orderTotalRows(order)).toEqual(totalsRows(cart));
    expect(lineAmount(order.lineItems.nodes[0]!, true)).toBe('€37.50');
  });

  it('shows an order placed before prices included VAT as it was: net amounts and a tax row', () => {
    expect(orderTotalRows({ ...order, pricesIncludeTax: false }).map((r) => r.key)).toEqual([
      'subtotal',
      'shipping',
      'tax',
      'total',
    ]);
  });
});

describe('the confirmation mail', () => {
  const stored = {
    subtotalCents: 3151,
    discountCents: 0,
    discountTaxCents: 0,
    shippingCents: 490,
    shippingTaxCents: 93,
    totalTaxCents: 692,
    totalCents: 4333,
  };
  const items = [{ subtotalCents: 3151, subtotalTaxCents: 599 }];

  it('shows the amounts with their VAT, as the cart did', () => {
    expect(displayedOrderAmounts(stored, items, 'incl')).toEqual({
      taxIncluded: true,
      lineCents: [3750],
      subtotalCents: 3750,
      discountCents: 0,
      shippingCents: 583,
      taxCents: 692,
      totalCents: 4333,
    });
    expect(displayedOrderAmounts(stored, items, 'excl')).toMatchObject({ lineCents: [3151], shippingCents: 490 });
  });

  it('says the VAT the total includes, and prints the VAT ID and the reverse-charge note', () => {
    const shown = displayedOrderAmounts(stored, items, 'incl');
    const mail = orderConfirmation({
      orderNumber: '1001',
      orderDate: new Date('2026-11-20T10:00:00Z'),
      currency: 'EUR',
      lineItems: [{ name: 'Cable', quantity: 3, totalCents: shown.lineCents[0]! }],
      subtotalCents: shown.subtotalCents,
      shippingCents: shown.shippingCents,
      shippingMethod: 'Flat rate',
      taxCents: shown.taxCents,
      taxIncluded: true,
      totalCents: shown.totalCents,
      vatId: 'FR40303265045',
      vatNote: 'VAT reverse charge: the customer accounts for the VAT.',
      paymentMethodTitle: 'Cash on delivery',
      billingAddress: { firstName: 'Jeanne', lastName: 'Martin', country: 'FR' },
      orderUrl: 'https://shop.test/checkout/order-received/1001/?key=k',
    });
    expect(mail.text).toContain('3 × Cable  €37.50');
    expect(mail.text).toContain('Shipping (Flat rate): €5.83');
    expect(mail.text).toContain('Total: €43.33 (includes €6.92 VAT)');
    expect(mail.text).not.toMatch(/^Tax:/m);
    expect(mail.text).toContain('VAT ID: FR40303265045');
    expect(mail.text).toContain('VAT reverse charge: the customer accounts for the VAT.');
    expect(mail.html).toContain('(includes €6.92 VAT)');
  });
});

describe('the note beside catalog prices', () => {
  it('says "incl. VAT, plus shipping" in the page’s language, the shipping linking to the shipping policy', () => {
    const note = (code: 'en_US' | 'de_DE', localePrefix: string, includesTax = true) =>
      renderToString(
        createElement(TaxNote, { t: createLookup(pickStrings(code, ['product.'])), localePrefix, includesTax }),
      );
    const en = note('en_US', '');
    expect(en).toContain('incl. VAT, plus <a href="/policies/shipping"');
    expect(en).toMatch(/>shipping<\/a>/);
    const de = note('de_DE', '/de');
    expect(de).toContain('inkl. MwSt., zzgl. <a href="/de/policies/shipping"');
    expect(de).toMatch(/>Versandkosten<\/a>/);
    const excl = note('en_US', '', false);
    expect(excl).toContain('excl. VAT, plus');
  });
});

describe('structured data', () => {
  it('says the offer’s price includes VAT', () => {
    const data = buildProductJsonLd({ databaseId: 1, name: 'Yagi', rawPrice: '119' }, { url: 'https://shop.test/p' });
    expect(data.offers).toMatchObject({
      '@type': 'Offer',
      price: '119.00',
      priceSpecification: { price: '119.00', priceCurrency: 'EUR', valueAddedTaxIncluded: true },
    });
    const excl = buildProductJsonLd(
      { databaseId: 1, name: 'Yagi', rawPrice: '100, 120' },
      { url: 'https://shop.test/p', pricesIncludeTax: false },
    );
    expect(excl.offers).toMatchObject({
      '@type': 'AggregateOffer',
      priceSpecification: { minPrice: '100.00', maxPrice: '120.00', valueAddedTaxIncluded: false },
    });
  });
});
