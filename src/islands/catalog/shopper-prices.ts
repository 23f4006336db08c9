/**
 * Prices for a shopper whose destination is known and is not the shop's base country. Prebuilt and cached
 * catalog pages carry the base country's prices (the same for every visitor); once the session tells that
 * this shopper pays others (Customer.catalogPricesApply false: another EU country's VAT, none outside the
 * EU, or the reverse charge for a business), a plain script asks the engine for the page's products beside
 * the customer (getShopperPrices: the shopper's own answer, priced for them and never cached) and keeps
 * them in `$shopperPrices`. The islands that show prices lay them over the static ones
 * (withShopperPrices) and hydrate at once on SHOPPER_PRICES_CHANGED.
 *
 *   watchShopperPrices([databaseId, …])   // page script; each call adds the page's products
 *   useStore($shopperPrices)              // islands
 */
import { atom } from 'nanostores';
import type { PricedFields } from '../../lib/catalog/types.ts';
import { centsToDecimal, parseRawPrices } from '../../lib/money.ts';
import { readLocal } from '../../stores/browser-storage.ts';
import { $customer, OWN_PRICES_KEY } from '../../stores/customer.ts';

/** Dispatched on window when the shopper's prices arrive or go: the islands showing prices hydrate at once. */
export const SHOPPER_PRICES_CHANGED = 'meshfront:shopper-prices-changed';

const PRICE_FIELDS = ['price', 'regularPrice', 'salePrice', 'rawPrice', 'rawRegularPrice', 'rawSalePrice'] as const;

type PriceFields = Pick<PricedFields, (typeof PRICE_FIELDS)[number]>;
/** One product's prices for this shopper, with its variations'. */
export type ShopperPrice = PriceFields & { variations: ReadonlyMap<number, PriceFields> };

/** By product database id; null while the catalog's prices are the shopper's (or nothing is known yet). */
export const $shopperPrices = atom<ReadonlyMap<number, ShopperPrice> | null>(null);

export type Priced = PricedFields & {
  databaseId?: number | null;
  variations?: { nodes?: (PricedFields & { databaseId: number })[] | null } | null;
};

function pickPrices(fields: PriceFields | null | undefined): PriceFields {
  const out: PriceFields = {};
  if (!fields) return out;
  for (const key of PRICE_FIELDS) if (fields[key] !== undefined) out[key] = fields[key];
  return out;
}

/** A product (with its variations) showing the shopper's prices where the engine sent them. */
export function withShopperPrices<T extends Priced>(product: T, prices: ReadonlyMap<number, ShopperPrice> | null): T {
  const own = prices && typeof product.databaseId === 'number' ? prices.get(product.databaseId) : undefined;
  if (!own) return product;
  return {
    ...product,
    ...pickPrices(own),
    variations: product.variations
      ? {
          nodes: (product.variations.nodes ?? []).map((v) => ({
            ...v,
            ...pickPrices(own.variations.get(v.databaseId)),
          })),
        }
      : product.variations,
  };
}

/** The engine's answer by product id. */
export function shopperPriceMap(
  nodes: readonly (
    | (PriceFields & {
        databaseId: number;
        variations?: { nodes?: readonly ((PriceFields & { databaseId: number }) | null)[] | null } | null;
      })
    | null
  )[],
): Map<number, ShopperPrice> {
  const map = new Map<number, ShopperPrice>();
  for (const node of nodes) {
    if (!node) continue;
    const variations = new Map<number, PriceFields>();
    for (const v of node.variations?.nodes ?? []) if (v) variations.set(v.databaseId, pickPrices(v));
    map.set(node.databaseId, { ...pickPrices(node), variations });
  }
  return map;
}

const wanted = new Set<number>();
let watching = false;
let unsubscribe: (() => void) | null = null;
let scheduled = false;
/** The customer's price-relevant state the prices were last asked for ('' while the catalog's apply). */
let askedFor = '';
let generation = 0;

/** One request for every product added in the same task (a page's cards register one by one). */
function scheduleLoad(win: Window): void {
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    void load(win);
  });
}

async function load(win: Window): Promise<void> {
  const ids = [...wanted];
  const mine = ++generation;
  try {
    const { request } = await import('../../graphql/client.ts');
    const data = await request('getShopperPrices', { include: ids, first: ids.length });
    if (mine !== generation) return;
    if (data.customer?.catalogPricesApply !== false) {
      $shopperPrices.set(null);
    } else {
      const nodes = (data.products?.nodes ?? []) as Parameters<typeof shopperPriceMap>[0];
      $shopperPrices.set(shopperPriceMap(nodes));
    }
    win.dispatchEvent(new Event(SHOPPER_PRICES_CHANGED));
  } catch (error) {
    // The page keeps the catalog's prices; the cart and the checkout price every line for the shopper anyway.
    console.error('Shopper prices failed', error);
  }
}

/**
 * Re-prices `productIds` for the session's shopper whenever the session's customer pays other prices than
 * the catalog's (and again when their address changes); idempotent per product.
 */
export function watchShopperPrices(productIds: readonly number[], win: Window = window): void {
  let added = false;
  for (const id of productIds) {
    if (Number.isSafeInteger(id) && id > 0 && !wanted.has(id)) {
      wanted.add(id);
      added = true;
    }
  }
  if (added && askedFor) scheduleLoad(win);
  if (watching) return;
  watching = true;
  if (readLocal(OWN_PRICES_KEY) === '1')
    import('../../stores/session.ts')
      .then(({ startSession }) => startSession())
      // Failures are handled (and shown) inside the session module.
      .catch(() => {});
  unsubscribe = $customer.subscribe((customer) => {
    if (!customer) return;
    const own = customer.catalogPricesApply === false;
    const state = own
      ? JSON.stringify([customer.shipping?.country, customer.billing?.country, customer.isVatExempt, customer.id])
      : '';
    if (state === askedFor) return;
    askedFor = state;
    if (own && wanted.size) scheduleLoad(win);
    else if (!own && $shopperPrices.get()) {
      generation++;
      $shopperPrices.set(null);
      win.dispatchEvent(new Event(SHOPPER_PRICES_CHANGED));
    }
  });
}

/** Watches every product card of a page (ProductCard's `data-product-id`). */
export function watchPageProducts(root: ParentNode = document, win: Window = window): void {
  const ids = [...root.querySelectorAll<HTMLElement>('[data-product-id]')].map((el) => Number(el.dataset.productId));
  watchShopperPrices(ids, win);
}

/**
 * A product page's JSON-LD offers at the prices the page shows (`rawPrice`: one amount, or a variable
 * product's "min, …, max"); null when the amounts cannot be read (the data is then left as it is).
 */
export function offersAtPrices(
  offers: Record<string, unknown>,
  rawPrice: string | null | undefined,
): Record<string, unknown> | null {
  const cents = parseRawPrices(rawPrice);
  if (!cents.length) return null;
  const low = centsToDecimal(Math.min(...cents));
  const high = centsToDecimal(Math.max(...cents));
  const spec = (offers.priceSpecification ?? {}) as Record<string, unknown>;
  if (offers['@type'] === 'AggregateOffer')
    return {
      ...offers,
      lowPrice: low,
      highPrice: high,
      priceSpecification: { ...spec, minPrice: low, maxPrice: high },
    };
  return { ...offers, price: low, priceSpecification: { ...spec, price: low } };
}

/** For tests: forget the watched products and the prices. */
export function resetShopperPrices(): void {
  unsubscribe?.();
  unsubscribe = null;
  wanted.clear();
  watching = false;
  askedFor = '';
  generation++;
  $shopperPrices.set(null);
}
