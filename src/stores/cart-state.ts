/**
 * Typed access to the shell's `$cart` store (src/stores/cart.ts) for the cart issue's code. The shell
 * declares a loose Cart shape so its badge script stays independent of the GraphQL layer; here the
 * store holds exactly what the engine returned (fragments/Cart.graphql): results that
 * return a cart replace the stored cart — `replaceCart` is the one way that happens.
 */
import { atom, type ReadableAtom } from 'nanostores';
import type { Cart } from '../graphql/types';
import { $cart } from './cart';

/** The same atom as `$cart`, typed as the engine's Cart. */
export const $engineCart = $cart as unknown as ReadableAtom<Cart | null>;

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
  $cart.set(normalized as unknown as Parameters<typeof $cart.set>[0]);
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
