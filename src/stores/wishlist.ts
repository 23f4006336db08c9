/**
 * The guest wishlist, kept in the browser (localStorage, synced across tabs). For a logged-in customer
 * the account issue moves it to the server; these actions stay the one way to change it.
 */
import { persistentAtom } from '@nanostores/persistent';
import { computed } from 'nanostores';

export interface WishlistItem {
  databaseId: number;
  slug: string;
  name: string;
  /** Image URL (sourceUrl) or null. */
  image: string | null;
  /** The formatted price shown when the item was saved. */
  price: string | null;
}

export const WISHLIST_STORAGE_KEY = 'meshfront:wishlist';
const MAX_ITEMS = 200;

function isItem(value: unknown): value is WishlistItem {
  if (!value || typeof value !== 'object') return false;
  const item = value as Record<string, unknown>;
  return (
    Number.isInteger(item.databaseId) &&
    typeof item.slug === 'string' &&
    typeof item.name === 'string' &&
    (item.image === null || typeof item.image === 'string') &&
    (item.price === null || typeof item.price === 'string')
  );
}

/** Reads stored JSON defensively: another version or a hand-edited value must not break the page. */
export function decodeWishlist(encoded: string): WishlistItem[] {
  try {
    const value: unknown = JSON.parse(encoded);
    if (!Array.isArray(value)) return [];
    const seen = new Set<number>();
    return value
      .filter((item): item is WishlistItem => {
        if (!isItem(item) || seen.has(item.databaseId)) return false;
        seen.add(item.databaseId);
        return true;
      })
      .slice(0, MAX_ITEMS);
  } catch {
    return [];
  }
}

export const $wishlist = persistentAtom<WishlistItem[]>(WISHLIST_STORAGE_KEY, [], {
  encode: JSON.stringify,
  decode: decodeWishlist,
});

export const $wishlistCount = computed($wishlist, (items) => items.length);

export function inWishlist(databaseId: number): boolean {
  return $wishlist.get().some((item) => item.databaseId === databaseId);
}

export function addToWishlist(item: WishlistItem): void {
  if (!isItem(item) || inWishlist(item.databaseId)) return;
  const clean: WishlistItem = {
    databaseId: item.databaseId,
    slug: item.slug,
    name: item.name,
    image: item.image,
    price: item.price,
  };
  $wishlist.set([clean, ...$wishlist.get()].slice(0, MAX_ITEMS));
}

export function removeFromWishlist(databaseId: number): void {
  $wishlist.set($wishlist.get().filter((item) => item.databaseId !== databaseId));
}

/** Adds or removes; returns whether the item is in the wishlist afterwards. */
export function toggleWishlist(item: WishlistItem): boolean {
  if (inWishlist(item.databaseId)) {
    removeFromWishlist(item.databaseId);
    return false;
  }
  addToWishlist(item);
  return true;
}

export function clearWishlist(): void {
  $wishlist.set([]);
}

/**
 * Moves an item to the cart through the given add-to-cart action (the cart issue provides it) and
 * removes it from the wishlist only when adding succeeded; a failure leaves the item and rethrows.
 */
export async function moveToCart(
  databaseId: number,
  addToCart: (item: WishlistItem) => Promise<unknown> | unknown,
): Promise<void> {
  const item = $wishlist.get().find((entry) => entry.databaseId === databaseId);
  if (!item) return;
  await addToCart(item);
  removeFromWishlist(databaseId);
}
