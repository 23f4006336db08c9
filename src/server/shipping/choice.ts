/**
 * Which of a package's rates the cart uses — WooCommerce's rules for the chosen shipping method, with one
 * of the shop's own:
 * - the shopper's choice while it is offered;
 * - except that free shipping which has just become available (the cart crossed the free-shipping
 *   amount, or a free-shipping coupon was applied) replaces a choice that costs money: nobody wants to
 *   keep paying for shipping the shop now gives away. A free choice (local pickup) stays;
 * - a choice that is no longer offered, or none: free shipping when offered, else the first rate in the
 *   zone's order (WooCommerce's default), never a rate the package does not offer.
 */
import type { ShippingRate } from './zones.ts';

const isFree = (r: ShippingRate) => r.methodId === 'free_shipping';

/**
 * `wanted`: the chosen rate id; `offeredBefore`: the rate ids the package offered when the cart was
 * last saved (null when unknown: then nothing counts as newly offered).
 */
export function chooseRate(
  rates: ShippingRate[],
  wanted: string | undefined,
  offeredBefore: readonly string[] | null,
): ShippingRate | undefined {
  const free = rates.find(isFree);
  const chosen = wanted ? rates.find((r) => r.id === wanted) : undefined;
  if (chosen) {
    const freeIsNew = free && offeredBefore !== null && !offeredBefore.includes(free.id);
    return freeIsNew && chosen.costCents > 0 ? free : chosen;
  }
  return free ?? rates[0];
}
