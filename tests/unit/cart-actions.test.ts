import { useTestStorageEngine } from '@nanostores/persistent';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeCookieJar, FakeStorage } from './session-fakes.ts';

useTestStorageEngine();

const request = vi.fn();
vi.mock('../../src/graphql/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/graphql/client.ts')>();
  return { ...actual, request: (...args: unknown[]) => request(...args), configureClient: vi.fn() };
});
Object.assign(globalThis, { document: new FakeCookieJar(), localStorage: new FakeStorage() });

const actions = await import('../../src/stores/cart-actions.ts');
const { $cart, $cartItemCount } = await import('../../src/stores/cart.ts');
const { $cartBusy } = await import('../../src/stores/cart-state.ts');
const { $alert, dismissAlert } = await import('../../src/stores/alert.ts');
const { GraphQLRequestError } = await import('../../src/graphql/client.ts');
const { resetSessionModule } = await import('../../src/stores/session.ts');

const cart = (itemCount: number, extra: Record<string, unknown> = {}) => ({
  isEmpty: itemCount === 0,
  total: `€${itemCount * 10}.00`,
  chosenShippingMethods: ['flat_rate:1', 'local_pickup:3'],
  contents: { itemCount, productCount: 1, nodes: [{ key: 'line-1', quantity: itemCount }] },
  ...extra,
});
const sessionStart = { cart: cart(1), customer: null, viewer: null, paymentGateways: { nodes: [] }, loginClients: [] };

/** Answers getCart with the session start and every other operation with `answer(name, vars)`. */
function engine(answer: (name: string, vars: Record<string, unknown>) => unknown) {
  request.mockImplementation(async (name: string, vars: Record<string, unknown>) =>
    name === 'getCart' ? sessionStart : answer(name, vars),
  );
}
const mutationCalls = () => request.mock.calls.filter(([name]) => name !== 'getCart');

beforeEach(() => {
  request.mockReset();
  resetSessionModule();
  $cart.set(null);
  dismissAlert();
});

describe('cart actions', () => {
  it('addToCart starts the session first, sends the product and replaces the cart with the returned one', async () => {
    engine(() => ({ addToCart: { cartItem: { key: 'line-1', quantity: 3 }, cart: cart(3) } }));
    await actions.addToCart({ productId: 12, quantity: 2 });
    expect(request.mock.calls[0][0]).toBe('getCart');
    expect(mutationCalls()).toEqual([['addToCart', { productId: 12, quantity: 2 }]]);
    expect($cartItemCount.get()).toBe(3);
  });

  it('addToCart sends a variable product with its variation and attributes, quantity at least 1', async () => {
    engine(() => ({ addToCart: { cart: cart(1) } }));
    await actions.addToCart({
      productId: 30,
      variationId: 31,
      variation: [{ attributeName: 'pa_color', attributeValue: 'black' }],
      quantity: 0,
    });
    expect(mutationCalls()[0]).toEqual([
      'addToCart',
      {
        productId: 30,
        variationId: 31,
        variation: [{ attributeName: 'pa_color', attributeValue: 'black' }],
        quantity: 1,
      },
    ]);
  });

  it('updateQuantity sets the quantity; 0 and removeItem remove the line', async () => {
    engine((_name, vars) => ({ updateItemQuantities: { cart: cart(vars.quantity as number) } }));
    await actions.updateQuantity('line-1', 4);
    expect($cartItemCount.get()).toBe(4);
    await actions.updateQuantity('line-1', -2);
    await actions.removeItem('line-1');
    expect(mutationCalls()).toEqual([
      ['UpDateCartQuantity', { key: 'line-1', quantity: 4 }],
      ['UpDateCartQuantity', { key: 'line-1', quantity: 0 }],
      ['UpDateCartQuantity', { key: 'line-1', quantity: 0 }],
    ]);
    expect($cartItemCount.get()).toBe(0);
  });

  it('applyCoupon trims the code; removeCoupon removes one code', async () => {
    engine((name) =>
      name === 'applyCoupon'
        ? {
            applyCoupon: { applied: { code: 'welcome10' }, cart: cart(1, { appliedCoupons: [{ code: 'welcome10' }] }) },
          }
        : { removeCoupons: { cart: cart(1, { appliedCoupons: null }) } },
    );
    await actions.applyCoupon('  WELCOME10 ');
    expect(($cart.get() as unknown as { appliedCoupons: unknown }).appliedCoupons).toEqual([{ code: 'welcome10' }]);
    await actions.removeCoupon('welcome10');
    expect(mutationCalls()).toEqual([
      ['applyCoupon', { code: 'WELCOME10' }],
      ['removeCoupons', { codes: ['welcome10'] }],
    ]);
    expect(($cart.get() as unknown as { appliedCoupons: unknown }).appliedCoupons).toBeNull();
  });

  it('changeShippingMethod replaces only the chosen package', async () => {
    engine(() => ({ updateShippingMethod: { cart: cart(1) } }));
    await actions.changeShippingMethod('free_shipping:2', 0);
    expect(mutationCalls()[0]).toEqual([
      'ChangeShippingMethod',
      { shippingMethods: ['free_shipping:2', 'local_pickup:3'] },
    ]);
  });

  it('changeShippingCountry updates the session customer, then reloads the cart', async () => {
    let refreshed = 0;
    request.mockImplementation(async (name: string) => {
      if (name === 'getCart') {
        refreshed++;
        return { ...sessionStart, cart: cart(refreshed) };
      }
      return { updateCustomer: { customer: null } };
    });
    await actions.changeShippingCountry({ country: 'DE' }, { country: 'AT', state: '' });
    expect(mutationCalls()).toEqual([
      [
        'ChangeShippingCounty',
        { shippingCountry: 'DE', shippingState: undefined, billingCountry: 'AT', billingState: undefined },
      ],
    ]);
    expect(request.mock.calls.map(([n]) => n)).toEqual(['getCart', 'ChangeShippingCounty', 'getCart']);
    expect($cartItemCount.get()).toBe(2);
  });

  it('emptyCart replaces the cart with the empty one', async () => {
    engine(() => ({ emptyCart: { cart: cart(0) } }));
    await actions.emptyCart();
    expect(mutationCalls()).toEqual([['EmptyCart']]);
    expect($cartItemCount.get()).toBe(0);
  });

  it("an engine error raises the alert with the engine's message, rethrows and leaves the cart as it was", async () => {
    engine(() => {
      throw new GraphQLRequestError('You cannot add that amount to the cart', {
        operationName: 'addToCart',
        status: 200,
        errors: [{ message: 'x' }],
      });
    });
    await expect(actions.addToCart({ productId: 12, quantity: 99 })).rejects.toThrow('You cannot add that amount');
    expect($alert.get()).toMatchObject({ type: 'danger', message: 'You cannot add that amount to the cart' });
    expect($cartItemCount.get()).toBe(1);
    expect($cartBusy.get()).toBe(false);
  });

  it('runs actions one after another, so the last answer is the cart shown', async () => {
    const order: string[] = [];
    let releaseFirst: () => void = () => {};
    engine(async (name, vars) => {
      order.push(`start ${name} ${vars.quantity}`);
      if (vars.quantity === 2) await new Promise<void>((resolve) => (releaseFirst = resolve));
      order.push(`end ${name} ${vars.quantity}`);
      return { updateItemQuantities: { cart: cart(vars.quantity as number) } };
    });
    const first = actions.updateQuantity('line-1', 2);
    const second = actions.updateQuantity('line-1', 5);
    await vi.waitFor(() => expect(order).toContain('start UpDateCartQuantity 2'));
    expect($cartBusy.get()).toBe(true);
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual([
      'start UpDateCartQuantity 2',
      'end UpDateCartQuantity 2',
      'start UpDateCartQuantity 5',
      'end UpDateCartQuantity 5',
    ]);
    expect($cartItemCount.get()).toBe(5);
    expect($cartBusy.get()).toBe(false);
  });

  it('the wishlist move-to-cart adds one unit of a simple product', async () => {
    engine((name) =>
      name === 'getStockStatus'
        ? { product: { id: 'p', databaseId: 77, stockStatus: 'IN_STOCK' } }
        : { addToCart: { cart: cart(2) } },
    );
    expect(await actions.addWishlistItemToCart({ databaseId: 77, slug: 'mug' })).toBe('added');
    expect(mutationCalls()).toEqual([
      ['getStockStatus', { slug: 'mug' }],
      ['addToCart', { productId: 77, quantity: 1 }],
    ]);
    expect($cartItemCount.get()).toBe(2);
  });

  it('the wishlist move-to-cart sends a variable product to its page instead of the cart', async () => {
    engine(() => ({
      product: { id: 'p', databaseId: 30, stockStatus: 'IN_STOCK', variations: { nodes: [{ databaseId: 31 }] } },
    }));
    expect(await actions.addWishlistItemToCart({ databaseId: 30, slug: 'shirt' })).toBe('choose-options');
    expect(mutationCalls().map(([name]) => name)).toEqual(['getStockStatus']);
  });

  it('cartSettled waits for every queued action, including ones queued while waiting', async () => {
    let release!: () => void;
    engine(async (_name, vars) => {
      if (vars.quantity === 2) await new Promise<void>((r) => (release = r));
      return { updateItemQuantities: { cart: cart(Number(vars.quantity)) } };
    });
    const first = actions.updateQuantity('line-1', 2);
    let settled = false;
    const waiting = actions.cartSettled().then(() => (settled = true));
    await vi.waitFor(() => expect(release).toBeTypeOf('function'));
    const second = actions.updateQuantity('line-1', 4);
    release();
    await waiting;
    // Settled means the action queued while waiting has finished too.
    expect(settled).toBe(true);
    expect($cartItemCount.get()).toBe(4);
    expect($cartBusy.get()).toBe(false);
    await Promise.all([first, second]);
  });
});
