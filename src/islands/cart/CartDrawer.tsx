/**
 * The cart drawer's contents, mounted inside the shell's cart panel (#cart-panel-content) with
 * `client:panel="cart"`: it hydrates the first time the panel opens, starts the session (one getCart)
 * and from then on shows the stored cart — lines with quantity steppers, coupons, the shipping choice,
 * totals and the checkout button. It hides the shell's static empty state and renders its own.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { createLookup, type Strings } from '../../lib/i18n/lookup';
import { createPluralLookup } from '../../lib/i18n/plural';
import { $cartBusy, $engineCart, cartLines, isCartEmpty } from '../../stores/cart-state';
import { $customer } from '../../stores/customer';
import { $sessionStatus, startSession } from '../../stores/session';
import { CartLine, CartTotals, CouponForm, ShippingChoice } from './parts';

export interface CartDrawerProps {
  strings: Strings;
  /** '' for English, '/de' … */
  localePrefix: string;
  /** BCP 47 tag of the page's locale ('de-DE'): which plural form a count takes. */
  locale: string;
}

export default function CartDrawer({ strings, localePrefix, locale }: CartDrawerProps) {
  const t = createLookup(strings);
  const tn = createPluralLookup(strings, locale);
  const cart = useStore($engineCart);
  const busy = useStore($cartBusy);
  const status = useStore($sessionStatus);
  const customer = useStore($customer);
  const [mounted, setMounted] = useState(false);

  useEffect(() => {
    setMounted(true);
    // The shell's static empty state was only a stand-in until this island runs.
    const staticEmpty = document.querySelector<HTMLElement>('#cart-panel [data-cart-empty]');
    if (staticEmpty) staticEmpty.hidden = true;
    startSession().catch(() => {});
    return () => {
      if (staticEmpty) staticEmpty.hidden = false;
    };
  }, []);

  // The server-rendered HTML cannot know the cart: render nothing until mounted. "Nothing" must be an
  // empty fragment, not null: Astro asks each renderer whether it owns a component, and @astrojs/react
  // says yes only if a test render returns a React element. A null made it say no, so Astro went on to
  // the MDX renderer's probe, which calls this component as a plain function outside React: its hooks
  // ran without a dispatcher (React's development build logs "Invalid hook call" on every page rendered
  // on demand). The fragment gives the same empty HTML, and React's renderer claims the island at once.
  // biome-ignore lint/complexity/noUselessFragments: the empty fragment is needed, as said above
  if (!mounted) return <></>;

  if (!cart) {
    if (status === 'error') {
      return (
        <div className="flex h-full flex-col items-center justify-center gap-4 px-8 py-16 text-center" role="alert">
          <p className="text-sm text-gray-700">{t('cart.loadFailed')}</p>
          <button
            type="button"
            onClick={() => startSession().catch(() => {})}
            className="rounded-full bg-main px-5 py-2 text-sm font-semibold text-on-main focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main"
          >
            {t('cart.retry')}
          </button>
        </div>
      );
    }
    return (
      <div className="flex h-full items-center justify-center px-8 py-16" role="status" aria-live="polite">
        <span
          className="inline-block size-6 animate-spin rounded-full border-2 border-main border-t-transparent"
          aria-hidden="true"
        />
        <span className="ml-3 text-sm text-gray-700">{t('cart.loading')}</span>
      </div>
    );
  }

  if (isCartEmpty(cart)) {
    return (
      <div className="flex h-full flex-col items-center justify-center px-8 py-16 text-center" data-cart-drawer-empty>
        <p className="text-lg font-semibold text-gray-900">{t('cart.empty.title')}</p>
        <p className="mt-2 max-w-xs text-sm text-gray-600">{t('cart.empty.hint')}</p>
        <a
          href={`${localePrefix}/products`}
          className="mt-6 inline-flex items-center gap-2 rounded-full bg-main px-5 py-2.5 text-sm font-semibold text-on-main shadow-sm hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main"
        >
          {t('cart.empty.browse')}
        </a>
      </div>
    );
  }

  const lines = cartLines(cart);
  return (
    <div className="flex h-full flex-col" aria-busy={busy} data-cart-drawer>
      <p className="sr-only" role="status" aria-live="polite">
        {tn('cart.itemCount', cart.contents?.itemCount ?? 0)}
      </p>
      <ul className="flex-1 divide-y divide-gray-100 overflow-y-auto px-5" aria-label={t('cart.items')}>
        {lines.map((item) => (
          <CartLine
            key={item.key}
            item={item}
            t={t}
            localePrefix={localePrefix}
            includeTax={cart.displayPricesIncludeTax === true}
          />
        ))}
      </ul>
      <div className="space-y-4 border-t border-gray-100 bg-gray-50 px-5 py-4">
        <CouponForm cart={cart} t={t} />
        <ShippingChoice cart={cart} t={t} />
        <CartTotals cart={cart} t={t} vatExempt={customer?.isVatExempt === true} />
        <a
          href={`${localePrefix}/checkout`}
          aria-disabled={busy || undefined}
          className={`flex w-full items-center justify-center rounded-full bg-main px-5 py-3 text-base font-semibold text-on-main shadow-sm hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main ${busy ? 'pointer-events-none opacity-70' : ''}`}
          data-cart-checkout
        >
          {busy ? t('cart.updating') : t('cart.checkout')}
        </a>
      </div>
    </div>
  );
}
