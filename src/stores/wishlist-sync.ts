/**
 * A logged-in customer's wishlist lives on the server (the engine's customer.wishlist); the browser's
 * `$wishlist` (stores/wishlist.ts) stays the one list every heart button and the /wishlist page change.
 * This module keeps the two together:
 *
 * - on login, the browser's (guest) list is merged into the server's and the result becomes the
 *   browser's list (`mergeBrowserWishlist`);
 * - while logged in, each add or remove in the browser goes to the server as well (this module
 *   listens to `$wishlist` once imported: the wishlist islands import it);
 * - the account area loads the server's list into the browser (`loadServerWishlist`), so a change made
 *   on another device shows up.
 *
 * The GraphQL client is imported only when a logged-in customer actually changes the list, so pages
 * where a guest taps a heart ship no extra code.
 */
import type { ProductCardFragment as ProductCard } from '../graphql/generated/operations';
import { priceDisplay } from '../lib/catalog/price';
import { $viewer } from './viewer';
import { $wishlist, type WishlistItem } from './wishlist';

/** A server wishlist product as the browser's list keeps it. */
export function wishlistItemOf(product: ProductCard): WishlistItem {
  // A product type without prices in the card (a grouped product, which this shop does not sell) shows none.
  const { price } = 'price' in product ? priceDisplay(product) : { price: '' };
  return {
    databaseId: product.databaseId,
    slug: product.slug ?? '',
    name: product.name ?? '',
    image: product.image?.sourceUrl ?? null,
    price: price || null,
  };
}

/** Ids added to and removed from a list between two versions of it. */
export function wishlistChanges(
  before: readonly WishlistItem[],
  after: readonly WishlistItem[],
): { added: number[]; removed: number[] } {
  const was = new Set(before.map((i) => i.databaseId));
  const is = new Set(after.map((i) => i.databaseId));
  return { added: [...is].filter((id) => !was.has(id)), removed: [...was].filter((id) => !is.has(id)) };
}

/** True while the browser's list is being replaced with the server's (that is not a change to send). */
let applyingServerList = false;

function replaceWithServerList(products: readonly (ProductCard | null)[]): void {
  applyingServerList = true;
  try {
    $wishlist.set(products.filter((p): p is ProductCard => !!p && Number.isInteger(p.databaseId)).map(wishlistItemOf));
  } finally {
    applyingServerList = false;
  }
}

/** The server's list into the browser (the account area's wishlist tab). */
export async function loadServerWishlist(): Promise<void> {
  const { accountRequest } = await import('./account');
  const result = await accountRequest('getWishlist', { first: 200 });
  replaceWithServerList(result.customer?.wishlist?.nodes ?? []);
}

/** After login: the browser's list joins the server's, then the browser shows the union. */
export async function mergeBrowserWishlist(): Promise<void> {
  const ids = $wishlist.get().map((item) => item.databaseId);
  const { accountRequest } = await import('./account');
  if (ids.length) await accountRequest('mergeWishlist', { productIds: ids });
  await loadServerWishlist();
}

async function sendChanges(added: number[], removed: number[]): Promise<void> {
  const { accountRequest } = await import('./account');
  for (const productId of added) await accountRequest('addToWishlist', { productId });
  for (const productId of removed) await accountRequest('removeFromWishlist', { productId });
}

// Sends are chained so an add and a quick remove of the same product reach the server in order.
let pending: Promise<void> = Promise.resolve();

$wishlist.listen((after, before) => {
  if (applyingServerList || !$viewer.get()) return;
  const { added, removed } = wishlistChanges(before ?? [], after);
  if (!added.length && !removed.length) return;
  pending = pending
    .then(() => sendChanges(added, removed))
    .catch((error: unknown) => {
      // The browser keeps the change; the next visit to the account area reloads the server's list.
      console.warn('[meshfront] the wishlist change could not be saved to your account:', error);
    });
});
