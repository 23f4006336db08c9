/**
 * The cart issue's access to the shell's `$cart` store (src/stores/cart.ts), which holds exactly what
 * the engine returned (fragments/Cart.graphql): results that return a cart replace the stored cart —
 * `replaceCart` is the one way that happens.
 */
import { atom, type ReadableAtom } from 'nanostores';
import type { CartFragment as Cart } from '../graphql/generated/operations';
import { $cart } from './cart';

/** The same atom as `$cart`, read-only: islands and stores change it through `replaceCart` only. */
export const $engineCart: ReadableAtom<Cart | null> = $cart;

/** True while a cart mutation is in flight (the drawer and checkout show it and avoid double submits). */
export const $cartBusy = atom(false);

/** Replaces the stored cart with one the engine returned. Missing counts become 0 for the badge. */
export function replaceCart(cart: Cart | null | undefined): void {
  if (!cart) return;
  const contents = cart.contents ?? { itemCount: 0, productCount: 0, nodes: [] };
  const normalized = {
    ...cart,
    contents: {
      ...contents,
      itemCount: contents.itemCount ?? 0,
      productCount: contents.productCount ?? 0,
      nodes: contents.nodes ?? [],
    },
  };
  $cart.set(normalized);
}

/** Forgets the cart (session reset, failed refresh). */
export function resetCart(): void {
  $cart.set(null);
}

/** The cart's lines, or [] when there is no cart yet. */
export function cartLines(cart: Cart | null | undefined) {
  return cart?.contents?.nodes ?? [];
}

/** An empty cart, as the engine sends it after a successful checkout. */
export function isCartEmpty(cart: Cart | null | undefined): boolean {
  return !cart || cart.isEmpty === true || cartLines(cart).length === 0;
}
