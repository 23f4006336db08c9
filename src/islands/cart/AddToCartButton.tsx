/**
 * The product page's add-to-cart: a quantity field and the button. For a variable product it reads the
 * variation chosen in the VariationPicker island ($chosenVariation; before that island runs, the
 * page's default choice) and stays disabled until the choice matches a purchasable variation. While
 * adding it shows 'Adding...'; afterwards it opens the cart drawer when `autoOpenCart` is on and the
 * drawer is closed. The cart actions (and with them the GraphQL client) load on the first add.
 *
 *   <AddToCartButton client:interaction product={{ databaseId, type, name, stockStatus, stockQuantity,
 *     backordersAllowed, soldIndividually }} initialChoice={…} strings={pickStrings(code, ['cart.'])} autoOpenCart={…} />
 *
 * Hydrate it with client:interaction: the static button is already enabled when the product can be
 * bought, and that directive holds a tap made before hydration and replays it afterwards.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useState } from 'react';
import { createLookup, type Strings } from '../../lib/i18n/lookup';
import { $cartOpen, openCart } from '../../stores/ui';
import { $liveProduct } from '../product/live-stock';
import { $chosenVariation, type ChosenVariation } from '../product/selection';
import { addToCartState, type AddToCartProduct } from './add-to-cart-state';

export interface AddToCartButtonProps {
  product: AddToCartProduct;
  strings: Strings;
  /** storeSettings.autoOpenCart, passed by the page so the island does not ship the settings parser. */
  autoOpenCart?: boolean;
  /** Show the quantity field (default true). */
  showQuantity?: boolean;
  /** The variation the picker opens on (the product's default attributes), for the static page. */
  initialChoice?: ChosenVariation | null;
}

export default function AddToCartButton({
  product: given,
  strings,
  autoOpenCart = false,
  showQuantity = true,
  initialChoice = null,
}: AddToCartButtonProps) {
  const t = createLookup(strings);
  const picked = useStore($chosenVariation);
  const live = useStore($liveProduct);
  const [adding, setAdding] = useState(false);
  const [quantity, setQuantity] = useState('1');
  const [added, setAdded] = useState('');
  const quantityId = useId();
  // The first render matches the static HTML; the live stock applies from the next one on.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);

  const current = mounted && live?.databaseId === given.databaseId ? live : null;
  const product: AddToCartProduct = current
    ? {
        ...given,
        stockStatus: current.stockStatus ?? given.stockStatus,
        stockQuantity: current.stockQuantity !== undefined ? current.stockQuantity : given.stockQuantity,
      }
    : given;
  // Before mounting, the page's default choice (what the static HTML shows), even if the picker island
  // hydrated first; then the picker's.
  const chosen = (mounted ? picked : null) ?? initialChoice;
  const state = addToCartState(product, chosen?.productId === product.databaseId ? chosen : null);
  const count = Math.max(1, Number.parseInt(quantity, 10) || 1);
  // While adding, the button only says so (aria-disabled) instead of being disabled: a disabled button
  // loses focus, which would drop a keyboard shopper to the top of the page after every add.
  const disabled = state.kind !== 'ready';

  const add = async () => {
    if (adding || state.kind !== 'ready') return;
    setAdding(true);
    setAdded('');
    try {
      const { addToCart } = await import('../../stores/cart-actions');
      await addToCart({ ...state.input, quantity: product.soldIndividually ? 1 : count });
      setAdded(t('cart.added', { name: product.name ?? '' }));
      if (autoOpenCart && !$cartOpen.get()) openCart();
    } catch {
      // The alert banner shows the engine's message (e.g. not enough stock); a failed download of the
      // cart code is handled by the shell (it reloads the page once).
    } finally {
      setAdding(false);
    }
  };

  const label = adding
    ? t('cart.adding')
    : state.kind === 'out-of-stock'
      ? t('cart.outOfStock')
      : state.kind === 'choose-options'
        ? t('cart.chooseOptions')
        : t('cart.addToCart');

  return (
    <div className="space-y-2">
      <div className="flex items-stretch gap-3">
        {showQuantity && !product.soldIndividually && (
          <>
            <label htmlFor={quantityId} className="sr-only">
              {t('cart.quantityLabel')}
            </label>
            <input
              id={quantityId}
              type="number"
              min={1}
              max={product.stockQuantity && !product.backordersAllowed ? product.stockQuantity : undefined}
              inputMode="numeric"
              value={quantity}
              onChange={(e) => setQuantity(e.target.value)}
              disabled={state.kind === 'out-of-stock'}
              className="w-20 rounded-md border border-gray-300 px-3 text-center text-base text-gray-900 focus:outline-2 focus:outline-main disabled:opacity-60"
            />
          </>
        )}
        <button
          type="button"
          onClick={add}
          disabled={disabled}
          aria-disabled={disabled || adding}
          data-add-to-cart
          className="flex-1 rounded-full bg-main px-6 py-3 text-base font-semibold text-on-main shadow-sm transition hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main disabled:cursor-not-allowed disabled:opacity-60 disabled:hover:brightness-100 aria-disabled:opacity-60"
        >
          {label}
        </button>
      </div>
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-green-700">
        {added}
      </p>
    </div>
  );
}

export type { AddToCartProduct };
