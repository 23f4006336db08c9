import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { createLookup, type Strings } from '../../lib/i18n/lookup.ts';
import { engineMessage } from '../../stores/engine-message.ts';
import { getImage, localiseImageUrl, PLACEHOLDER_IMAGE } from '../../lib/image/helper.ts';
import { addWishlistItemToCart } from '../../stores/cart-actions.ts';
import { openCart } from '../../stores/ui.ts';
import { $wishlist, removeFromWishlist, type WishlistItem } from '../../stores/wishlist.ts';
// A logged-in customer's changes also go to the account's wishlist on the server.
import '../../stores/wishlist-sync.ts';

export interface WishlistPageProps {
  strings: Strings;
  /** '' for English, '/de' … */
  localePrefix?: string;
  /** Where the shop starts, for the empty state's link. */
  shopPath?: string;
  /** The add action; the cart's own wishlist action (addWishlistItemToCart) unless a caller wraps it. */
  addToCart?: (item: WishlistItem) => Promise<'added' | 'choose-options'>;
}

/**
 * The guest wishlist: each item with move-to-cart and remove. "Move to cart" adds a simple product to
 * the cart, takes it off the list and opens the cart drawer; a variable product opens its page, where
 * the shopper picks the variation.
 */
export default function WishlistPage({
  strings,
  localePrefix = '',
  shopPath = '/products',
  addToCart = addWishlistItemToCart,
}: WishlistPageProps) {
  const t = createLookup(strings);
  const items = useStore($wishlist);
  // The static HTML cannot know the browser's wishlist: render the list only after mounting.
  const [mounted, setMounted] = useState(false);
  const [busy, setBusy] = useState<number | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  useEffect(() => setMounted(true), []);

  const productHref = (item: WishlistItem) => `${localePrefix}/product/${encodeURIComponent(item.slug)}`;

  const move = async (item: WishlistItem) => {
    setBusy(item.databaseId);
    setMessage(null);
    try {
      if ((await addToCart(item)) === 'choose-options') {
        setMessage({ text: t('wishlist.chooseOptions', { name: item.name }), error: false });
        window.location.assign(productHref(item));
        return;
      }
      // Only once it is in the cart does it leave the wishlist.
      removeFromWishlist(item.databaseId);
      setMessage({ text: t('wishlist.moved', { name: item.name }), error: false });
      openCart();
    } catch (error) {
      setMessage({ text: engineMessage(error) || t('wishlist.moveFailed'), error: true });
    } finally {
      setBusy(null);
    }
  };

  if (!mounted) return <p className="text-sm text-gray-600 dark:text-gray-300">{t('wishlist.loading')}</p>;

  return (
    <div>
      <p
        role="status"
        aria-live="polite"
        className={`mb-4 text-sm ${message?.error ? 'text-red-700 dark:text-red-400' : 'text-green-700 dark:text-green-400'}`}
      >
        {message?.text ?? ''}
      </p>
      {items.length === 0 ? (
        <div className="rounded-lg border border-dashed border-gray-300 p-10 text-center dark:border-gray-600">
          <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">{t('wishlist.empty.title')}</h2>
          <p className="mt-2 text-sm text-gray-600 dark:text-gray-300">{t('wishlist.empty.hint')}</p>
          <a
            href={`${localePrefix}${shopPath}`}
            className="mt-4 inline-block rounded-md bg-main px-4 py-2 text-sm font-medium text-on-main"
          >
            {t('wishlist.browse')}
          </a>
        </div>
      ) : (
        <ul className="divide-y divide-gray-200 dark:divide-gray-700">
          {items.map((item) => (
            <li key={item.databaseId} className="flex items-center gap-4 py-4">
              <img
                src={getImage(localiseImageUrl(item.image) || PLACEHOLDER_IMAGE, { preset: 'thumbnail' }).url}
                alt=""
                width={96}
                height={96}
                loading="lazy"
                className="h-20 w-20 shrink-0 rounded-md bg-gray-100 object-contain dark:bg-gray-800"
              />
              <div className="min-w-0 flex-1">
                <a href={productHref(item)} className="font-medium text-gray-900 hover:text-main dark:text-gray-100">
                  {item.name}
                </a>
                {item.price && <p className="text-sm text-gray-600 dark:text-gray-300">{item.price}</p>}
              </div>
              <div className="flex flex-col gap-2 sm:flex-row">
                <button
                  type="button"
                  disabled={busy === item.databaseId}
                  aria-busy={busy === item.databaseId}
                  data-wishlist-move={item.databaseId}
                  onClick={() => move(item)}
                  className="rounded-md bg-main px-3 py-2 text-sm font-medium text-on-main disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main"
                >
                  {/* The accessible name starts with the visible text (WCAG 2.5.3) and names the product. */}
                  {t('wishlist.moveToCart')}
                  <span className="sr-only">: {item.name}</span>
                </button>
                <button
                  type="button"
                  onClick={() => removeFromWishlist(item.databaseId)}
                  aria-label={t('wishlist.remove', { name: item.name })}
                  className="rounded-md border border-gray-300 px-3 py-2 text-sm dark:border-gray-600"
                >
                  {t('wishlist.removeShort')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
