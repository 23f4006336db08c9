// Which shipping rate a cart uses (src/server/shipping/choice.ts): the shopper's choice while offered,
// free shipping when it has just become available, never a rate the package does not offer.
import { describe, expect, it } from 'vitest';
import { chooseRate } from '../../src/server/shipping/choice.ts';
import type { ShippingRate } from '../../src/server/shipping/zones.ts';

const rate = (id: string, costCents: number): ShippingRate => {
  const [methodId, instance] = id.split(':');
  return { id, methodId: methodId!, instanceId: Number(instance), label: methodId!, costCents };
};
const FREE = rate('free_shipping:2', 0);
const FLAT = rate('flat_rate:1', 490);
const PICKUP = rate('local_pickup:3', 0);

describe('chooseRate', () => {
  it('keeps the shopper’s choice while it is offered', () => {
    expect(chooseRate([FLAT, PICKUP], 'local_pickup:3', ['flat_rate:1', 'local_pickup:3'])).toBe(PICKUP);
    // Free shipping was offered when flat rate was chosen: a deliberate choice stays.
    expect(chooseRate([FREE, FLAT, PICKUP], 'flat_rate:1', ['free_shipping:2', 'flat_rate:1'])).toBe(FLAT);
  });

  it('switches a paid choice to free shipping when free shipping has just become available', () => {
    expect(chooseRate([FREE, FLAT, PICKUP], 'flat_rate:1', ['flat_rate:1', 'local_pickup:3'])).toBe(FREE);
    // A choice that costs nothing (local pickup) stays.
    expect(chooseRate([FREE, FLAT, PICKUP], 'local_pickup:3', ['flat_rate:1', 'local_pickup:3'])).toBe(PICKUP);
    // Unknown history: nothing counts as new.
    expect(chooseRate([FREE, FLAT], 'flat_rate:1', null)).toBe(FLAT);
  });

  it('never keeps a rate that is no longer offered: free shipping if offered, else the first', () => {
    expect(chooseRate([FLAT, PICKUP], 'free_shipping:2', ['free_shipping:2', 'flat_rate:1'])).toBe(FLAT);
    expect(chooseRate([FLAT, FREE], 'flat_rate:9', null)).toBe(FREE);
    expect(chooseRate([FREE, FLAT], undefined, [])).toBe(FREE);
    expect(chooseRate([], 'flat_rate:1', [])).toBeUndefined();
  });
});
