/**
 * The cart's actions: each one calls the engine and replaces the stored cart with the cart it returns
 * (the storefront–engine rules in src/graphql/client.ts). Errors raise the alert banner with the engine's message and are rethrown, so a
 * caller can also show them in place. Actions run one after another — a quantity click while an add
 * is in flight waits for it — because the engine serialises a session's mutations anyway and the last
 * answer must be the cart the shopper sees.
 *
 *   await addToCart({ productId: 12 });                                  // simple product
 *   await addToCart({ productId: 30, variationId: 31, variation: [...] }) // variable product
 *   await updateQuantity(key, 0);                                        // 0 removes the line
 */
import { request } from '../graphql/client';
import type { CartFragment as Cart } from '../graphql/generated/operations';
import type { CountriesEnum } from '../graphql/generated/schema';
import type { OperationVariables } from '../graphql/shapes';
import { raiseAlert } from './alert';
import { engineMessage } from './engine-message';
import { $cartBusy, $engineCart, replaceCart } from './cart-state';
import { refreshSession, sessionReady } from './session';
import { vatIdErrorKey } from '../lib/vat-id';

let queue: Promise<unknown> = Promise.resolve();
let pending = 0;

/** Runs `task` after every earlier action has settled; keeps `$cartBusy` true meanwhile. */
function enqueue<T>(task: () => Promise<T>): Promise<T> {
  pending++;
  $cartBusy.set(true);
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run.finally(() => {
    pending--;
    if (pending === 0) $cartBusy.set(false);
  });
}

/**
 * Resolves once every queued cart action has settled, including ones queued meanwhile. The checkout
 * waits for this before placing the order instead of disabling its button while the cart refreshes
 * in the background (a disabled button silently swallows the shopper's click).
 */
export async function cartSettled(): Promise<void> {
  while (pending > 0) await queue;
}

function report(error: unknown): never {
  raiseAlert({ type: 'danger', message: engineMessage(error), timeout: 6000 });
  throw error;
}

async function mutate(run: () => Promise<Cart | null | undefined>): Promise<Cart | null> {
  return enqueue(async () => {
    await sessionReady();
    try {
      const cart = await run();
      replaceCart(cart);
      return $engineCart.get();
    } catch (error) {
      return report(error);
    }
  });
}

export type AddToCartInput = OperationVariables<'addToCart'>;

/** Adds a product; for a variable product pass the variationId and the chosen attributes. */
export function addToCart(input: AddToCartInput): Promise<Cart | null> {
  const quantity = Math.max(1, Math.floor(input.quantity ?? 1));
  return mutate(async () => (await request('addToCart', { ...input, quantity })).addToCart?.cart);
}

/** Sets a line's quantity; 0 (or less) removes the line. */
export function updateQuantity(key: string, quantity: number): Promise<Cart | null> {
  const clean = Number.isFinite(quantity) ? Math.max(0, Math.floor(quantity)) : 0;
  return mutate(async () => (await request('UpDateCartQuantity', { key, quantity: clean })).updateItemQuantities?.cart);
}

export function removeItem(key: string): Promise<Cart | null> {
  return updateQuantity(key, 0);
}

export function applyCoupon(code: string): Promise<Cart | null> {
  const clean = code.trim();
  return mutate(async () => (await request('applyCoupon', { code: clean })).applyCoupon?.cart);
}

/** Removes one coupon (the engine removes one code at a time). */
export function removeCoupon(code: string): Promise<Cart | null> {
  return mutate(async () => (await request('removeCoupons', { codes: [code] })).removeCoupons?.cart);
}

/**
 * Chooses a rate for one shipping package; the other packages keep their chosen rates.
 * `packageIndex` is the index in availableShippingMethods.
 */
export function changeShippingMethod(rateId: string, packageIndex = 0): Promise<Cart | null> {
  return mutate(async () => {
    // Read the other packages' choices when it is this action's turn: earlier actions may change them.
    const chosen = [...($engineCart.get()?.chosenShippingMethods ?? [])];
    while (chosen.length <= packageIndex) chosen.push('');
    chosen[packageIndex] = rateId;
    return (await request('ChangeShippingMethod', { shippingMethods: chosen })).updateShippingMethod?.cart;
  });
}

/**
 * Tells the engine where the order ships to (and is billed), so rates and taxes are recalculated, then
 * reads the new cart (the mutation returns the customer, not the cart).
 */
export function changeShippingCountry(
  shipping: { country: string; state?: string | null },
  billing: { country: string; state?: string | null } = shipping,
): Promise<Cart | null> {
  return enqueue(async () => {
    await sessionReady();
    try {
      // The checkout form offers allowedCountries only; the engine refuses a code that is no CountriesEnum value.
      await request('ChangeShippingCounty', {
        shippingCountry: shipping.country as CountriesEnum,
        shippingState: shipping.state || undefined,
        billingCountry: billing.country as CountriesEnum,
        billingState: billing.state || undefined,
      });
      await refreshSession();
      return $engineCart.get();
    } catch (error) {
      return report(error);
    }
  });
}

/**
 * Gives the engine the business customer's VAT ID for the billing country ('' removes it): the engine
 * checks it (format, then the EU's VIES service) and prices the cart for it, so the cart is read again.
 * A refused VAT ID rejects with the engine's error (its code says why: src/lib/vat-id.ts), for the field
 * to show; the alert banner stays for other failures.
 */
export function changeVatId(billingCountry: string, vatId: string): Promise<Cart | null> {
  return enqueue(async () => {
    await sessionReady();
    try {
      await request('UpdateVatId', { billingCountry: billingCountry as CountriesEnum, vatId });
      await refreshSession();
      return $engineCart.get();
    } catch (error) {
      if (vatIdErrorKey(error)) throw error;
      return report(error);
    }
  });
}

export function emptyCart(): Promise<Cart | null> {
  return mutate(async () => (await request('EmptyCart')).emptyCart?.cart);
}

/**
 * The wishlist's "move to cart" (src/islands/wishlist/WishlistPage.tsx). A simple product is added at
 * once (one unit); a variable product needs its options chosen, which the wishlist does not keep, so
 * the answer is 'choose-options' and the caller opens the product page. The product's kind comes from
 * the engine (getStockStatus), so wishlists saved before this existed work too. Engine refusals (out of
 * stock, …) raise the alert and reject, like every cart action.
 */
export async function addWishlistItemToCart(item: {
  databaseId: number;
  slug: string;
}): Promise<'added' | 'choose-options'> {
  if (item.slug) {
    const { product } = await request('getStockStatus', { slug: item.slug });
    if (product && 'variations' in product && product.variations) return 'choose-options';
  }
  await addToCart({ productId: item.databaseId, quantity: 1 });
  return 'added';
}
