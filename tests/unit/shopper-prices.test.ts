/**
 * A prebuilt catalog page re-priced for a shopper whose destination is not the shop's base country
 * (src/islands/catalog/shopper-prices.ts): once the session's customer says the catalog's prices are not
 * theirs, the page's products are asked for again beside the customer (getShopperPrices) and the islands
 * lay those prices over the static ones; the structured data's offers follow.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const request = vi.fn();
vi.mock('../../src/graphql/client.ts', () => ({ request }));
vi.mock('../../src/stores/session.ts', () => ({ startSession: vi.fn(async () => {}) }));

const { $customer } = await import('../../src/stores/customer.ts');
const {
  $shopperPrices,
  offersAtPrices,
  resetShopperPrices,
  SHOPPER_PRICES_CHANGED,
  watchShopperPrices,
  withShopperPrices,
} = await import('../../src/islands/catalog/shopper-prices.ts');

type Customer = NonNullable<ReturnType<typeof $customer.get>>;
const customer = (country: string, catalogPricesApply: boolean) =>
  ({
    id: 'guest',
    catalogPricesApply,
    isVatExempt: false,
    shipping: { country },
    billing: { country },
  }) as unknown as Customer;

/** The engine's answer for a shopper in Switzerland: the €119.00 antenna at €100.00, a hoodie's variations net. */
const SWISS = {
  customer: { id: 'guest', catalogPricesApply: false },
  products: {
    nodes: [
      {
        databaseId: 7,
        price: '€100.00',
        regularPrice: '€100.00',
        salePrice: null,
        rawPrice: '100',
        rawRegularPrice: '100',
        rawSalePrice: null,
      },
      {
        databaseId: 8,
        price: '€33.61 - €41.18',
        rawPrice: '33.61,41.18',
        variations: { nodes: [{ databaseId: 81, price: '€41.18', rawPrice: '41.18' }] },
      },
    ],
  },
};

const events: string[] = [];
const win = { dispatchEvent: (e: Event) => events.push(e.type) } as unknown as Window;

beforeEach(() => {
  resetShopperPrices();
  $customer.set(null);
  request.mockReset();
  events.length = 0;
});
afterEach(() => {
  resetShopperPrices();
});

const settle = () => new Promise((r) => setTimeout(r, 10));

describe('asking for the shopper’s prices', () => {
  it('asks nothing while the catalog’s prices are the shopper’s (base country, or not known yet)', async () => {
    watchShopperPrices([7, 8], win);
    $customer.set(customer('DE', true));
    await settle();
    expect(request).not.toHaveBeenCalled();
    expect($shopperPrices.get()).toBeNull();
  });

  it('asks once for every product of the page when they are not, and tells the islands', async () => {
    request.mockResolvedValue(SWISS);
    watchShopperPrices([7], win);
    watchShopperPrices([8, 7], win);
    $customer.set(customer('CH', false));
    await settle();
    expect(request).toHaveBeenCalledTimes(1);
    expect(request).toHaveBeenCalledWith('getShopperPrices', { include: [7, 8], first: 2 });
    expect($shopperPrices.get()?.get(7)?.price).toBe('€100.00');
    expect(events).toEqual([SHOPPER_PRICES_CHANGED]);
    // The same customer again (another session refresh): no new request.
    $customer.set(customer('CH', false));
    await settle();
    expect(request).toHaveBeenCalledTimes(1);
    // Back to Germany: the catalog's prices again.
    $customer.set(customer('DE', true));
    await settle();
    expect($shopperPrices.get()).toBeNull();
    expect(events).toEqual([SHOPPER_PRICES_CHANGED, SHOPPER_PRICES_CHANGED]);
  });
});

describe('showing them', () => {
  it('lays the shopper’s prices over a product and its variations, leaving stock alone', () => {
    const prices = new Map([
      [
        8,
        {
          price: '€33.61 - €41.18',
          rawPrice: '33.61,41.18',
          variations: new Map([[81, { price: '€41.18', rawPrice: '41.18' }]]),
        },
      ],
    ]);
    const product = {
      databaseId: 8,
      price: '€40.00 - €49.00',
      rawPrice: '40,49',
      stockStatus: 'IN_STOCK' as const,
      variations: {
        nodes: [
          { databaseId: 81, price: '€49.00', rawPrice: '49', stockQuantity: 3 },
          { databaseId: 82, price: '€40.00' },
        ],
      },
    };
    expect(withShopperPrices(product, prices)).toEqual({
      databaseId: 8,
      price: '€33.61 - €41.18',
      rawPrice: '33.61,41.18',
      stockStatus: 'IN_STOCK',
      variations: {
        nodes: [
          { databaseId: 81, price: '€41.18', rawPrice: '41.18', stockQuantity: 3 },
          { databaseId: 82, price: '€40.00' },
        ],
      },
    });
    expect(withShopperPrices(product, null)).toBe(product);
  });

  it('puts the same amounts into the structured data’s offers', () => {
    const offer = {
      '@type': 'Offer',
      price: '119.00',
      priceCurrency: 'EUR',
      priceSpecification: { '@type': 'UnitPriceSpecification', price: '119.00', valueAddedTaxIncluded: true },
    };
    expect(offersAtPrices(offer, '100')).toMatchObject({ price: '100.00', priceSpecification: { price: '100.00' } });
    const aggregate = {
      '@type': 'AggregateOffer',
      lowPrice: '40.00',
      highPrice: '49.00',
      priceSpecification: { minPrice: '40.00', maxPrice: '49.00' },
    };
    expect(offersAtPrices(aggregate, '33.61,41.18')).toMatchObject({
      lowPrice: '33.61',
      highPrice: '41.18',
      priceSpecification: { minPrice: '33.61', maxPrice: '41.18' },
    });
    expect(offersAtPrices(offer, '')).toBeNull();
  });
});
