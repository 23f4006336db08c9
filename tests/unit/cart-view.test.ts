import { describe, expect, it } from 'vitest';
import type { CartFragment as Cart } from '../../src/graphql/generated/operations.ts';
import type { CartItem } from '../../src/graphql/shapes.ts';
import {
  attributeValueLabel,
  isPositiveAmount,
  itemAttributes,
  itemChoices,
  itemImage,
  itemName,
  itemSlug,
  itemUnitPrice,
  parseQuantity,
  shippingPackages,
  totalsRows,
} from '../../src/islands/cart/cart-view.ts';
import { addToCartState } from '../../src/islands/cart/add-to-cart-state.ts';

const simpleLine = {
  key: 'a',
  quantity: 2,
  subtotal: '€20.00',
  total: '€23.80',
  tax: '€3.80',
  product: {
    node: {
      databaseId: 1,
      name: 'LoRa Gateway',
      slug: 'lora-gateway',
      price: '€10.00',
      image: { sourceUrl: '/media/gw.png', altText: 'Gateway' },
    },
  },
  variation: null,
} as unknown as CartItem;

const variableLine = {
  ...simpleLine,
  key: 'b',
  product: {
    node: {
      databaseId: 2,
      name: 'T-shirt',
      slug: 't-shirt',
      price: '€15.00 - €20.00',
      image: { sourceUrl: '/media/shirt.png', altText: '' },
    },
  },
  variation: {
    node: {
      databaseId: 3,
      name: 'T-shirt - Black, L',
      price: '€20.00',
      image: { sourceUrl: '/media/shirt-black.png', altText: 'Black shirt' },
    },
    attributes: [
      { id: '1', attributeId: 1, name: 'pa_color', label: 'Colour', value: 'black' },
      { id: '2', attributeId: 2, name: 'pa_frequency-band', label: null, value: 'eu-868' },
      { id: '3', attributeId: 3, name: 'pa_size', label: 'Size', value: '' },
    ],
  },
} as unknown as CartItem;

describe('cart line view', () => {
  it('names, links and pictures a simple line from its product', () => {
    expect(itemName(simpleLine)).toBe('LoRa Gateway');
    expect(itemSlug(simpleLine)).toBe('lora-gateway');
    expect(itemImage(simpleLine)).toEqual({ src: '/media/gw.png', alt: 'Gateway' });
    expect(itemUnitPrice(simpleLine)).toBe('€10.00');
    expect(itemAttributes(simpleLine)).toEqual([]);
  });

  it('uses the variation for a variable line but links to the parent product', () => {
    expect(itemName(variableLine)).toBe('T-shirt - Black, L');
    expect(itemSlug(variableLine)).toBe('t-shirt');
    expect(itemImage(variableLine)).toEqual({ src: '/media/shirt-black.png', alt: 'Black shirt' });
    expect(itemUnitPrice(variableLine)).toBe('€20.00');
  });

  it('lists the chosen attributes, skipping "any" values and reading slugs as words', () => {
    expect(itemAttributes(variableLine)).toEqual([
      { label: 'Colour', value: 'black' },
      { label: 'frequency band', value: 'Eu 868' },
    ]);
    expect(attributeValueLabel('Black')).toBe('Black');
    expect(attributeValueLabel('868-mhz')).toBe('868 mhz');
  });

  it('prints the choices by the term names the engine gives, in its language, never the slugs', () => {
    const line = (attributes: { name: string; label: string; value: string; valueName: string }[]) =>
      ({
        ...variableLine,
        variation: { ...variableLine.variation, attributes: attributes.map((a, i) => ({ id: String(i), ...a })) },
      }) as unknown as CartItem;
    expect(
      itemChoices(
        line([
          { name: 'pa_frequency-band', label: 'Frequency band', value: 'eu868', valueName: 'EU868' },
          { name: 'pa_gain', label: 'Antenna gain', value: '5-8-dbi', valueName: '5.8 dBi' },
        ]),
      ),
    ).toBe('Frequency band: EU868 · Antenna gain: 5.8 dBi');
    expect(
      itemChoices(
        line([
          { name: 'pa_color', label: 'Farbe', value: 'white', valueName: 'Weiß' },
          { name: 'pa_size', label: 'Größe', value: 'l', valueName: 'L' },
        ]),
      ),
    ).toBe('Farbe: Weiß · Größe: L');
    expect(itemChoices(simpleLine)).toBe('');
  });

  it('parses a typed quantity: whole numbers 0..max, anything else keeps the current one', () => {
    expect(parseQuantity('3', 1)).toBe(3);
    expect(parseQuantity(' 0 ', 4)).toBe(0);
    expect(parseQuantity('', 4)).toBe(4);
    expect(parseQuantity('-1', 4)).toBe(4);
    expect(parseQuantity('2.5', 4)).toBe(4);
    expect(parseQuantity('abc', 4)).toBe(4);
    expect(parseQuantity('5000', 4)).toBe(999);
  });
});

const baseCart = {
  isEmpty: false,
  subtotal: '€100.00',
  rawSubtotal: '100',
  discountTotal: '€0.00',
  rawDiscountTotal: '0',
  shippingTotal: '€0.00',
  rawShippingTotal: '0',
  totalTax: '€19.00',
  total: '€119.00',
  chosenShippingMethods: null,
  availableShippingMethods: null,
  appliedCoupons: null,
} as unknown as Cart;

describe('cart totals', () => {
  it('shows subtotal, tax and total; no discount or shipping rows when there are none', () => {
    expect(totalsRows(baseCart).map((r) => r.key)).toEqual(['subtotal', 'tax', 'total']);
  });

  it('adds the discount as a negative amount when a coupon applies', () => {
    const cart = {
      ...baseCart,
      discountTotal: '€10.00',
      rawDiscountTotal: '10',
      appliedCoupons: [{ code: 'welcome10' }],
    } as unknown as Cart;
    expect(totalsRows(cart)).toContainEqual({ key: 'discount', value: '-€10.00' });
  });

  it('adds shipping when rates exist, even when the chosen one is free', () => {
    const cart = {
      ...baseCart,
      availableShippingMethods: [
        { packageDetails: 'Gateway ×1', rates: [{ id: 'free_shipping:2', label: 'Free shipping', cost: '€0.00' }] },
      ],
    } as unknown as Cart;
    expect(totalsRows(cart).map((r) => r.key)).toEqual(['subtotal', 'shipping', 'tax', 'total']);
  });

  it('decides on RAW amounts, not on formatting', () => {
    expect(isPositiveAmount('0.00', '€0.00')).toBe(false);
    expect(isPositiveAmount('0.01', '€0.01')).toBe(true);
    expect(isPositiveAmount(null, '€5,00')).toBe(true);
    expect(isPositiveAmount(null, '€0,00')).toBe(false);
    expect(isPositiveAmount(undefined, null)).toBe(false);
  });

  it('gives each package its rates and chosen rate, defaulting to the first rate', () => {
    const cart = {
      ...baseCart,
      chosenShippingMethods: ['local_pickup:3'],
      availableShippingMethods: [
        { packageDetails: 'A ×1', rates: [{ id: 'flat_rate:1' }, { id: 'local_pickup:3' }] },
        { packageDetails: 'B ×1', rates: [{ id: 'flat_rate:1' }, null] },
      ],
    } as unknown as Cart;
    expect(shippingPackages(cart).map((p) => [p.index, p.chosen, p.rates.length])).toEqual([
      [0, 'local_pickup:3', 2],
      [1, 'flat_rate:1', 1],
    ]);
  });
});

describe('add-to-cart state', () => {
  const simple = { databaseId: 5, type: 'SIMPLE', stockStatus: 'IN_STOCK' as const };
  const variable = { databaseId: 30, type: 'VARIABLE', stockStatus: 'IN_STOCK' as const };
  const chosen = (variation: Record<string, unknown> | undefined) => ({
    productId: 30,
    variation: variation as never,
    selection: { pa_color: 'black' },
    attributes: [{ attributeName: 'pa_color', attributeValue: 'black' }],
  });

  it('a simple product in stock is ready with its id', () => {
    expect(addToCartState(simple, null)).toEqual({ kind: 'ready', input: { productId: 5 } });
  });

  it('out of stock disables the button', () => {
    expect(addToCartState({ ...simple, stockStatus: 'OUT_OF_STOCK' }, null)).toEqual({ kind: 'out-of-stock' });
    expect(addToCartState(variable, chosen({ databaseId: 31, stockStatus: 'OUT_OF_STOCK' }))).toEqual({
      kind: 'out-of-stock',
    });
    expect(addToCartState({ ...variable, stockStatus: 'OUT_OF_STOCK' }, null)).toEqual({ kind: 'out-of-stock' });
  });

  it('a variable product waits for a variation to be chosen', () => {
    expect(addToCartState(variable, null)).toEqual({ kind: 'choose-options' });
    expect(addToCartState(variable, chosen(undefined))).toEqual({ kind: 'choose-options' });
  });

  it('a chosen variation sends its id and attributes; backorders count as available', () => {
    expect(addToCartState(variable, chosen({ databaseId: 31, stockStatus: 'ON_BACKORDER' }))).toEqual({
      kind: 'ready',
      input: { productId: 30, variationId: 31, variation: [{ attributeName: 'pa_color', attributeValue: 'black' }] },
    });
  });
});

describe('engine messages', () => {
  it("reads WooCommerce's escaped messages as plain text", async () => {
    const { plainText, engineMessage } = await import('../../src/stores/engine-message.ts');
    expect(plainText('Coupon &quot;no-such-coupon&quot; cannot be applied because it does not exist.')).toBe(
      'Coupon "no-such-coupon" cannot be applied because it does not exist.',
    );
    expect(
      plainText(
        'The minimum spend for coupon &quot;mesh25&quot; is <span class="amount"><bdi>&euro;200.00</bdi></span>.',
      ),
    ).toBe('The minimum spend for coupon "mesh25" is €200.00.');
    expect(plainText('Sorry, &#039;x&#039; &amp; &#x27;y&#x27;')).toBe("Sorry, 'x' & 'y'");
    expect(engineMessage(new Error('a &lt;b&gt;'))).toBe('a <b>');
  });
});
