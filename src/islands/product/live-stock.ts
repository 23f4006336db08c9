/**
 * The product page's live price and stock. The page is prebuilt, so what it shows may be stale: a plain
 * script (no React) asks the engine once on load through the lean read path (src/graphql/lean.ts) and
 * keeps the answer in `$liveProduct`. When the answer differs from the prebuilt page it dispatches
 * LIVE_STOCK_CHANGED, which hydrates the islands that show price and stock at once
 * (`client:interaction={{ event: LIVE_STOCK_CHANGED }}`); when it matches, nothing more loads until the
 * visitor interacts.
 *
 *   startLiveStockCheck(slug, staticFields)   // page script; idempotent per slug
 *   useStore($liveProduct)                    // islands (merge with mergeLive after mounting)
 */
import { atom } from 'nanostores';
import { queryPublic } from '../../graphql/lean.ts';
import type { LiveStock, Loose } from '../../graphql/shapes.ts';
import type { PricedFields } from '../../lib/catalog/types.ts';

/** getStockStatus's product, the fields of every product type merged (an external product has no stock). */
export type LiveProduct = Loose<LiveStock>;

/** What the prebuilt page shows (the same shape), for the staleness check. */
export type StaticPriceStock = LiveProduct;

export const LIVE_FIELDS = [
  'price',
  'regularPrice',
  'salePrice',
  'rawPrice',
  'rawRegularPrice',
  'rawSalePrice',
  'onSale',
  'stockStatus',
  'stockQuantity',
] as const;

/** Dispatched on window when the live values differ: the islands showing them hydrate at once. */
export const LIVE_STOCK_CHANGED = 'meshfront:live-stock-changed';

/** Set once the engine answered for this page's product. */
export const $liveProduct = atom<LiveProduct | null>(null);

/** The fields the engine sent (undefined ones are left alone: an external product has no stock). */
export function pickLive(fields: PricedFields): PricedFields {
  const out: PricedFields = {};
  for (const key of LIVE_FIELDS) {
    if (fields[key] !== undefined) (out as Record<string, unknown>)[key] = fields[key];
  }
  return out;
}

/** A product (or any priced item with variations) with the live values laid over the static ones. */
export function mergeLive<
  T extends PricedFields & { variations?: { nodes?: (PricedFields & { databaseId: number })[] | null } | null },
>(product: T, live: LiveProduct | null): T {
  if (!live) return product;
  const liveVariations = new Map((live.variations?.nodes ?? []).map((v) => [v.databaseId, v]));
  return {
    ...product,
    ...pickLive(live),
    variations: product.variations
      ? {
          nodes: (product.variations.nodes ?? []).map((v) => ({
            ...v,
            ...pickLive(liveVariations.get(v.databaseId) ?? {}),
          })),
        }
      : product.variations,
  };
}

/** Stock counts up to this many are shown ('Only 3 left in stock'); above it the page says 'In stock'. */
export const LOW_STOCK_SHOWN = 5;

/** The count the stock line shows, or null when it shows none. */
export function shownStockCount(quantity: number | null | undefined): number | null {
  return typeof quantity === 'number' && quantity > 0 && quantity <= LOW_STOCK_SHOWN ? quantity : null;
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

function fieldsDiffer(shown: PricedFields, live: PricedFields): boolean {
  return LIVE_FIELDS.some((key) => {
    if (live[key] === undefined) return false;
    // 40 left or 39 left both read 'In stock': not worth hydrating the page for.
    if (key === 'stockQuantity')
      return !same(shownStockCount(shown.stockQuantity), shownStockCount(live.stockQuantity));
    return !same(shown[key], live[key]);
  });
}

/**
 * Whether the engine's answer changes anything the prebuilt page shows: a price, a sale, a stock
 * status, or a low-stock count. (The cart checks the exact stock when adding.)
 */
export function liveDiffers(shown: StaticPriceStock, live: LiveProduct): boolean {
  if (fieldsDiffer(shown, live)) return true;
  const byId = new Map((shown.variations?.nodes ?? []).map((v) => [v.databaseId, v]));
  return (live.variations?.nodes ?? []).some((v) => {
    const before = byId.get(v.databaseId);
    return before ? fieldsDiffer(before, v) : false;
  });
}

const started = new Set<string>();

/**
 * Asks the engine once per page and slug. Resolves with whether the prebuilt values were stale; a failed
 * check leaves the static values (the cart re-checks stock when adding anyway) and resolves false.
 */
export async function startLiveStockCheck(
  slug: string,
  shown: StaticPriceStock,
  win: Window = window,
): Promise<boolean> {
  if (!slug || started.has(slug)) return false;
  started.add(slug);
  try {
    const { product } = await queryPublic('getStockStatus', { slug });
    if (!product) return false;
    const live: LiveProduct = product;
    $liveProduct.set(live);
    const stale = liveDiffers(shown, live);
    // The islands show the live values once hydrated: do that now rather than at the first interaction.
    if (stale) win.dispatchEvent(new Event(LIVE_STOCK_CHANGED));
    return stale;
  } catch (error) {
    console.error('Live stock check failed', error);
    return false;
  }
}

/** For tests: forget which slugs were checked. */
export function resetLiveStock(): void {
  started.clear();
  $liveProduct.set(null);
}
