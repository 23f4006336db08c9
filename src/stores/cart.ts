/**
 * The cart as the engine returns it (fragments/Cart.graphql). Every GraphQL result that returns a cart
 * replaces it here (`replaceCart` in cart-state.ts); the header's badge reads `$cartItemCount`. The
 * type is erased from the shell's script, so the badge loads no GraphQL code.
 */
import { atom, computed } from 'nanostores';
import type { CartFragment } from '../graphql/generated/operations';

export const $cart = atom<CartFragment | null>(null);

export const $cartItemCount = computed($cart, (cart) => cart?.contents?.itemCount ?? 0);
