import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { createLookup, type Strings } from '../../lib/i18n/lookup.ts';
import { getImage, localiseImageUrl, PLACEHOLDER_IMAGE } from '../../lib/image/helper.ts';
import { $wishlist, moveToCart, removeFromWishlist, type WishlistItem } from '../../stores/wishlist.ts';

export interface WishlistPageProps {
  strings: Strings;
  /** '' for English, '/de' … */
  localePrefix?: string;
  /**
   * Adds an item to the cart (provided by the cart issue). Without it, "move to cart" opens the product
   * page, where options can be chosen and the product added.
   */
  addToCart?: (item: WishlistItem) => Promise<unknown>;
  /** Where the shop starts, for the empty state's link. */
  shopPath?: string;
}

/** The guest wishlist: each item with move-to-cart and remove. */
export default function WishlistPage({ strings, localePrefix = '', addToCart, shopPath = '/products' }: WishlistPageProps) {
  const t = createLookup(strings);
  const items = useStore($wishlist);
  // The static HTML cannot know the browser's wishlist: render the list only after mounting.
  const [mounted, setMounted] = useState(false);
  const [busy, setBusy] = useState<number | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  useEffect(() => setMounted(true), []);

  const productHref = (item: WishlistItem) => `${localePrefix}/product/${encodeURIComponent(item.slug)}`;

  const move = async (item: WishlistItem) => {
    if (!addToCart) {
      window.location.assign(productHref(item));
      return;
    }
    setBusy(item.databaseId);
    try {
      await moveToCart(item.databaseId, addToCart);
      setMessage({ text: t('wishlist.moved', { name: item.name }), error: false });
    } catch (error) {
      setMessage({ text: error instanceof Error && error.message ? error.message : t('wishlist.moveFailed'), error: true });
    } finally {
      setBusy(null);
    }
  };

  if (!mounted) return <p className="text-sm text-gray-600 dark:text-gray-300">{t('wishlist.loading')}</p>;

  return (
    <div>
      <p role="status" aria-live="polite" className={`mb-4 text-sm ${message?.error ? 'text-red-700 dark:text-red-400' : 'text-green-700 dark:text-green-400'}`}>
        {message?.text ?? ''}
      </p>
      {items.length === 0 ? (
        <div className="rounded-lg border border-dashed border-gray-300 p-10 text-center dark:border-gray-600">
          <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">{t('wishlist.empty.title')}</h2>
          <p className="mt-2 text-sm text-gray-600 dark:text-gray-300">{t('wishlist.empty.hint')}</p>
          <a href={`${localePrefix}${shopPath}`} className="mt-4 inline-block rounded-md bg-main px-4 py-2 text-sm font-medium text-on-main">
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
                  onClick={() => move(item)}
                  aria-label={t('wishlist.moveToCartNamed', { name: item.name })}
                  className="rounded-md bg-main px-3 py-2 text-sm font-medium text-on-main disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main"
                >
                  {t('wishlist.moveToCart')}
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
