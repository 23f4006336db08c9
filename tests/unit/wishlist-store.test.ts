import { cleanTestStorage, getTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

useTestStorageEngine();
const store = await import('../../src/stores/wishlist.ts');
const {
  $wishlist,
  $wishlistCount,
  addToWishlist,
  decodeWishlist,
  inWishlist,
  moveToCart,
  removeFromWishlist,
  toggleWishlist,
  WISHLIST_STORAGE_KEY,
} = store;

const item = (databaseId: number) => ({
  databaseId,
  slug: `p-${databaseId}`,
  name: `Product ${databaseId}`,
  image: null,
  price: '€10.00',
});

beforeAll(() => $wishlist.listen(() => {}));
afterEach(() => {
  $wishlist.set([]);
  cleanTestStorage();
});

describe('wishlist store', () => {
  it('adds once, newest first, and persists', () => {
    addToWishlist(item(1));
    addToWishlist(item(2));
    addToWishlist(item(1));
    expect($wishlist.get().map((i) => i.databaseId)).toEqual([2, 1]);
    expect($wishlistCount.get()).toBe(2);
    expect(JSON.parse(getTestStorage()[WISHLIST_STORAGE_KEY])).toHaveLength(2);
  });

  it('removes, toggles and answers has', () => {
    addToWishlist(item(1));
    expect(inWishlist(1)).toBe(true);
    expect(toggleWishlist(item(1))).toBe(false);
    expect(inWishlist(1)).toBe(false);
    expect(toggleWishlist(item(3))).toBe(true);
    removeFromWishlist(3);
    expect($wishlist.get()).toEqual([]);
  });

  it('keeps only the known fields', () => {
    addToWishlist({ ...item(5), extra: 'x' } as never);
    expect(Object.keys($wishlist.get()[0]).sort()).toEqual(['databaseId', 'image', 'name', 'price', 'slug']);
  });

  it('moves to the cart through the given action and keeps the item when adding fails', async () => {
    addToWishlist(item(1));
    const failing = vi.fn().mockRejectedValue(new Error('out of stock'));
    await expect(moveToCart(1, failing)).rejects.toThrow('out of stock');
    expect(inWishlist(1)).toBe(true);
    const adding = vi.fn().mockResolvedValue(undefined);
    await moveToCart(1, adding);
    expect(adding).toHaveBeenCalledWith(item(1));
    expect(inWishlist(1)).toBe(false);
  });

  it('reads stored values defensively', () => {
    expect(decodeWishlist('not json')).toEqual([]);
    expect(decodeWishlist('{"a":1}')).toEqual([]);
    expect(decodeWishlist(JSON.stringify([item(1), { databaseId: 'x' }, item(1), null, item(2)]))).toEqual([
      item(1),
      item(2),
    ]);
  });
});
