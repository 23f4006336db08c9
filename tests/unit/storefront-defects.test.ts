// The storefront's pure rules behind what a shopper sees: where the header search sends them, which
// payment method the checkout starts on, the sale badge of a variable product, the SKU that follows the
// chosen variation, and the checkout's optional username. The pages themselves are covered by
// tests/e2e/storefront-defects.spec.ts.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { searchScope } from '../../src/components/shell/search-scope.ts';
import ProductCard from '../../src/islands/catalog/ProductCard.tsx';
import { saleBadgeText } from '../../src/islands/catalog/sale-badge.ts';
import { defaultGateway } from '../../src/islands/checkout/gateways.ts';
import {
  buildCheckoutVariables,
  emptyAddress,
  validateCheckout,
  type CheckoutForm,
} from '../../src/islands/checkout/validation.ts';
import { shownSku, type ChosenVariation } from '../../src/islands/product/selection.ts';
import type { CatalogProduct, CatalogVariation } from '../../src/lib/catalog/types.ts';
import { createLookup } from '../../src/lib/i18n/lookup.ts';
import en from '../../locales/en_US.json';

const strings = en as Record<string, string>;
const t = createLookup(strings);

describe('header search scope', () => {
  it('keeps a search on a category listing (any of its pages) in that category', () => {
    expect(searchScope('/product-category/antennas')).toBe('/product-category/antennas');
    expect(searchScope('/product-category/antennas/')).toBe('/product-category/antennas');
    expect(searchScope('/product-category/antennas/page/3')).toBe('/product-category/antennas');
  });

  it('searches the whole catalog everywhere else', () => {
    for (const rest of ['/', '/products', '/products/page/2', '/product/omni-antenna', '/categories', '/support'])
      expect(searchScope(rest), rest).toBe('/products');
    expect(searchScope('/product-category/antennas/extra')).toBe('/products');
  });
});

describe('default payment method', () => {
  it('is card when the shop offers it, wherever it is listed', () => {
    expect(defaultGateway(['stripe', 'kda', 'cod'])).toBe('stripe');
    expect(defaultGateway(['cod', 'kda', 'stripe'])).toBe('stripe');
  });

  it("otherwise the first gateway in the shop's order; none when none is offered", () => {
    expect(defaultGateway(['kda', 'cod'])).toBe('kda');
    expect(defaultGateway(['cod', 'kda'])).toBe('cod');
    expect(defaultGateway([])).toBe('');
  });
});

/** A hoodie-like variable product: two variations, one on sale. */
const variation = (id: number, over: Partial<CatalogVariation> = {}): CatalogVariation => ({
  databaseId: id,
  sku: `HOOD-${id}`,
  onSale: false,
  rawPrice: '50',
  rawRegularPrice: '50',
  price: '€50.00',
  regularPrice: '€50.00',
  ...over,
});
const variable = (over: Partial<CatalogProduct> = {}): CatalogProduct => ({
  databaseId: 30,
  name: 'Hoodie',
  slug: 'hoodie',
  sku: 'HOOD',
  type: 'VARIABLE',
  onSale: true,
  // The sale variation is not the cheapest or dearest: the range is the same as without the sale.
  price: '€40.00 - €60.00',
  regularPrice: '€40.00 - €60.00',
  rawPrice: '40, 45, 60',
  rawRegularPrice: '40, 50, 60',
  rawSalePrice: '45',
  ...over,
});

describe('sale badge', () => {
  it('says "Sale!" for a variable product with only some variations on sale, on the card and with variations loaded', () => {
    expect(saleBadgeText(variable(), t)).toBe('Sale!');
    const loaded = variable({
      variations: { nodes: [variation(31), variation(32, { onSale: true, rawSalePrice: '45' })] },
    });
    expect(saleBadgeText(loaded, t)).toBe('Sale!');
    const html = renderToStaticMarkup(createElement(ProductCard, { product: variable(), strings }));
    expect(html).toMatch(/<span[^>]*data-sale-badge[^>]*>Sale!<\/span>/);
  });

  it('gives the percent when every variation is on sale, or for a simple product; nothing when not on sale', () => {
    expect(saleBadgeText(variable({ rawRegularPrice: '50, 50', rawSalePrice: '40, 40', rawPrice: '40, 40' }), t)).toBe(
      '-20%',
    );
    expect(saleBadgeText({ onSale: true, rawRegularPrice: '100', rawSalePrice: '79', type: 'SIMPLE' }, t)).toBe('-21%');
    expect(saleBadgeText(variable({ onSale: false }), t)).toBeNull();
    const html = renderToStaticMarkup(createElement(ProductCard, { product: variable({ onSale: false }), strings }));
    expect(html).not.toContain('data-sale-badge');
  });
});

describe('SKU on the product page', () => {
  const chosen = (v: CatalogVariation | undefined): ChosenVariation => ({
    productId: 30,
    variation: v,
    selection: {},
    attributes: [],
  });

  it("is the chosen variation's, else the product's", () => {
    expect(shownSku('HOOD', chosen(variation(31)))).toBe('HOOD-31');
    expect(shownSku('HOOD', chosen(undefined))).toBe('HOOD');
    expect(shownSku('HOOD', null)).toBe('HOOD');
    // A variation without a SKU of its own shows the product's (WooCommerce inherits it).
    expect(shownSku('HOOD', chosen(variation(33, { sku: null })))).toBe('HOOD');
  });
});

describe('checkout: "Create an account" without a username', () => {
  const form = (overrides: Partial<CheckoutForm> = {}): CheckoutForm => ({
    billing: {
      ...emptyAddress('DE'),
      firstName: 'Ada',
      lastName: 'Lovelace',
      address1: 'Hauptstraße 1',
      city: 'Berlin',
      postcode: '10115',
      email: 'ada@example.com',
    },
    shipToDifferentAddress: false,
    shipping: emptyAddress(''),
    customerNote: '',
    createAccount: true,
    username: '',
    password: 'long enough password',
    paymentMethod: 'cod',
    ...overrides,
  });
  const rules = { statesOf: () => [], gateways: ['cod'], loggedIn: false };

  it('is valid, and asks the engine for an account with an empty username (it makes one from the e-mail)', () => {
    expect(validateCheckout(form(), rules)).toEqual({});
    expect(buildCheckoutVariables(form(), null).account).toEqual({ username: '', password: 'long enough password' });
  });

  it('still checks a username that is given', () => {
    expect(validateCheckout(form({ username: 'a b' }), rules)).toEqual({
      'account.username': 'checkout.error.username',
    });
  });
});

describe('one spelling of "color" in US English', () => {
  it('en_US strings and the content files say "color", never "colour"', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const root = path.resolve(import.meta.dirname, '../..');
    const found: string[] = [];
    for (const [key, value] of Object.entries(strings)) if (/colour/i.test(value)) found.push(`en_US.json: ${key}`);
    const walk = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(dir, e.name);
        return e.isDirectory() ? walk(p) : /\.(json|mdx?|ya?ml)$/.test(e.name) ? [p] : [];
      });
    for (const file of walk(path.join(root, 'content')))
      if (/colour/i.test(fs.readFileSync(file, 'utf8'))) found.push(path.relative(root, file));
    expect(found).toEqual([]);
    expect(strings['catalog.attribute.pa_color']).toBe('Color');
  });
});
