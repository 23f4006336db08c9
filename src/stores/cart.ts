/**
 * The cart as the engine returns it (WooGraphQL `Cart` shape). Every GraphQL result that returns
 * a cart replaces it here; the cart issue owns the actions that load and change it.
 */
import { atom, computed } from 'nanostores';

export interface CartItem {
  key: string;
  quantity: number;
  [field: string]: unknown;
}

export interface Cart {
  contents: { itemCount: number; productCount?: number; nodes: CartItem[] };
  subtotal?: string | null;
  total?: string | null;
  [field: string]: unknown;
}

export const $cart = atom<Cart | null>(null);

export const $cartItemCount = computed($cart, (cart) => cart?.contents?.itemCount ?? 0);
