import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { createLookup, type Strings } from '../../lib/i18n/lookup.ts';
import { $wishlist, toggleWishlist, type WishlistItem } from '../../stores/wishlist.ts';
// A logged-in customer's changes also go to the account's wishlist on the server.
import '../../stores/wishlist-sync.ts';

export interface WishlistButtonProps {
  item: WishlistItem;
  strings: Strings;
  /** 'icon': a heart over a card; 'button': heart and text on the product page. */
  variant?: 'icon' | 'button';
}

function Heart({ filled }: { filled: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className="h-5 w-5"
      aria-hidden="true"
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d="M12 21s-7.5-4.6-9.5-9.2C1.1 8.4 3.2 4.5 7 4.5c2 0 3.4 1.1 5 3 1.6-1.9 3-3 5-3 3.8 0 5.9 3.9 4.5 7.3C19.5 16.4 12 21 12 21z" />
    </svg>
  );
}

/** Adds to / removes from the browser-kept wishlist; aria-pressed tells screen readers the state. */
export default function WishlistButton({ item, strings, variant = 'icon' }: WishlistButtonProps) {
  const t = createLookup(strings);
  const items = useStore($wishlist);
  // The static HTML cannot know the browser's wishlist; show the saved state only once mounted so
  // hydration matches the server markup.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const saved = mounted && items.some((entry) => entry.databaseId === item.databaseId);
  const label = saved ? t('wishlist.remove', { name: item.name }) : t('wishlist.add', { name: item.name });
  if (variant === 'button') {
    return (
      <button
        type="button"
        aria-pressed={saved}
        onClick={() => toggleWishlist(item)}
        className="inline-flex items-center gap-2 rounded-md border border-gray-300 px-4 py-2 text-sm font-medium hover:border-main hover:text-main focus-visible:outline-2 focus-visible:outline-main dark:border-gray-600"
      >
        <span className={saved ? 'text-main' : ''}>
          <Heart filled={saved} />
        </span>
        {saved ? t('wishlist.saved') : t('wishlist.save')}
      </button>
    );
  }
  return (
    <button
      type="button"
      aria-pressed={saved}
      aria-label={label}
      title={label}
      onClick={() => toggleWishlist(item)}
      className={`inline-flex h-9 w-9 items-center justify-center rounded-full bg-white/90 shadow-sm hover:text-main focus-visible:outline-2 focus-visible:outline-main dark:bg-gray-800/90 ${saved ? 'text-main' : 'text-gray-700 dark:text-gray-200'}`}
    >
      <Heart filled={saved} />
    </button>
  );
}
