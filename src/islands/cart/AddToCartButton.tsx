/**
 * The product page's add-to-cart: a quantity field and the button. For a variable product it reads the
 * variation chosen in the VariationPicker island ($chosenVariation) and stays disabled until the choice
 * matches a purchasable variation. While adding it shows 'Adding...'; afterwards it opens the cart
 * drawer when `autoOpenCart` is on and the drawer is closed.
 *
 *   <AddToCartButton client:visible product={{ databaseId, type, name, stockStatus, stockQuantity,
 *     backordersAllowed, soldIndividually }} strings={pickStrings(code, ['cart.'])} autoOpenCart={…} />
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useState } from 'react';
import type { StockStatus } from '../../graphql/types';
import { createLookup, type Strings } from '../../lib/i18n/lookup';
import { addToCart } from '../../stores/cart-actions';
import { $cartOpen, openCart } from '../../stores/ui';
import { $chosenVariation } from '../product/selection';
import { addToCartState, type AddToCartProduct } from './add-to-cart-state';

export interface AddToCartButtonProps {
  product: AddToCartProduct;
  strings: Strings;
  /** storeSettings.autoOpenCart, passed by the page so the island does not ship the settings parser. */
  autoOpenCart?: boolean;
  /** Show the quantity field (default true). */
  showQuantity?: boolean;
}

export default function AddToCartButton({ product, strings, autoOpenCart = false, showQuantity = true }: AddToCartButtonProps) {
  const t = createLookup(strings);
  const chosen = useStore($chosenVariation);
  const [adding, setAdding] = useState(false);
  const [quantity, setQuantity] = useState('1');
  const [added, setAdded] = useState('');
  const quantityId = useId();

  const state = addToCartState(product, chosen?.productId === product.databaseId ? chosen : null);
  const count = Math.max(1, Number.parseInt(quantity, 10) || 1);
  // The server-rendered button stays disabled until this island has hydrated, so a tap that comes
  // before the code has loaded is never silently lost.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const disabled = !hydrated || adding || state.kind !== 'ready';

  const add = async () => {
    if (state.kind !== 'ready') return;
    setAdding(true);
    setAdded('');
    try {
      await addToCart({ ...state.input, quantity: product.soldIndividually ? 1 : count });
      setAdded(t('cart.added', { name: product.name ?? '' }));
      if (autoOpenCart && !$cartOpen.get()) openCart();
    } catch {
      // The alert banner shows the engine's message (e.g. not enough stock).
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
          aria-disabled={disabled}
          data-add-to-cart
          className="flex-1 rounded-full bg-main px-6 py-3 text-base font-semibold text-on-main shadow-sm transition hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main disabled:cursor-not-allowed disabled:opacity-60 disabled:hover:brightness-100"
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

export type { AddToCartProduct, StockStatus };
