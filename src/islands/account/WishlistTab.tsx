/**
 * The customer's wishlist, kept on the server: loaded into the browser's list on opening (a change made
 * on another device shows up), then shown with the /wishlist page's own list (move to cart, remove),
 * whose changes go back to the server (stores/wishlist-sync.ts).
 */
import { useEffect, useState } from 'react';
import type { Lookup } from '../../lib/i18n/lookup';
import type { Strings } from '../../lib/i18n/lookup';
import { loadServerWishlist } from '../../stores/wishlist-sync';
import WishlistPage from '../wishlist/WishlistPage';
import { BUTTON_SECONDARY, Section } from './ui';

export default function WishlistTab({
  t,
  strings,
  localePrefix,
}: {
  t: Lookup;
  strings: Strings;
  localePrefix: string;
}) {
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry button's signal to load again
  useEffect(() => {
    let live = true;
    setState('loading');
    loadServerWishlist()
      .then(() => live && setState('ready'))
      .catch(() => live && setState('error'));
    return () => {
      live = false;
    };
  }, [attempt]);

  return (
    <Section title={t('account.wishlist.title')} id="wishlist-title">
      {state === 'loading' && <p className="text-sm text-gray-600">{t('wishlist.loading')}</p>}
      {state === 'error' && (
        <div role="alert" className="space-y-3">
          <p className="text-sm text-red-700">{t('account.wishlist.error')}</p>
          <button type="button" className={BUTTON_SECONDARY} onClick={() => setAttempt((n) => n + 1)}>
            {t('account.retry')}
          </button>
        </div>
      )}
      {state === 'ready' && <WishlistPage strings={strings} localePrefix={localePrefix} />}
    </Section>
  );
}
