import { useTestStorageEngine } from '@nanostores/persistent';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeCookieJar, FakeStorage } from './session-fakes.ts';

useTestStorageEngine();

const request = vi.fn();
vi.mock('../../src/graphql/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/graphql/client.ts')>();
  return { ...actual, request: (...args: unknown[]) => request(...args), configureClient: vi.fn() };
});

const jar = new FakeCookieJar();
const local = new FakeStorage();
Object.assign(globalThis, { document: jar, localStorage: local });

const session = await import('../../src/stores/session.ts');
const { GraphQLRequestError, TimeoutError, configureClient } = await import('../../src/graphql/client.ts');
/** What the session store plugged into the client when it loaded. */
const clientConfig = vi.mocked(configureClient).mock.calls[0]![0];
const { $cart, $cartItemCount } = await import('../../src/stores/cart.ts');
const { $customer, $loginClients } = await import('../../src/stores/customer.ts');
const { $paymentGateways } = await import('../../src/stores/gateways.ts');
const { $viewer } = await import('../../src/stores/viewer.ts');
const { $alert } = await import('../../src/stores/alert.ts');

const cart = (itemCount: number) => ({
  isEmpty: itemCount === 0,
  total: '€10.00',
  contents: {
    itemCount,
    productCount: itemCount ? 1 : 0,
    nodes: itemCount ? [{ key: 'k1', quantity: itemCount }] : [],
  },
});

const getCartResult = (overrides: Record<string, unknown> = {}) => ({
  cart: cart(2),
  customer: { id: 'guest', email: null, sessionToken: 'fresh-token', billing: null, shipping: null },
  viewer: null,
  paymentGateways: { nodes: [{ id: 'cod', title: 'Cash on delivery', description: null, icon: null }, null] },
  loginClients: [{ name: 'GitHub', provider: 'GITHUB', isEnabled: true, authorizationUrl: 'https://x', order: 1 }],
  ...overrides,
});

const apiError = (message: string) =>
  new GraphQLRequestError(message, { operationName: 'getCart', status: 200, errors: [{ message }] });

function env() {
  const marks = new FakeStorage();
  return { reload: vi.fn(), now: () => 1_000_000, marks };
}

beforeEach(() => {
  jar.values.clear();
  local.clear();
  request.mockReset();
  session.resetSessionModule();
  $cart.set(null);
  $paymentGateways.set([]);
  $viewer.set(null);
  $customer.set(null);
});
afterEach(() => vi.restoreAllMocks());

describe('session start', () => {
  it('refreshes cart, customer, viewer, gateways and login clients with ONE getCart call', async () => {
    request.mockResolvedValueOnce(
      getCartResult({
        viewer: {
          id: 'u1',
          databaseId: 5,
          username: 'ada',
          email: 'ada@example.com',
          firstName: 'Ada',
          lastName: null,
          nicename: 'ada',
          wooSessionToken: 'user-token',
          avatar: null,
        },
      }),
    );
    await Promise.all([session.startSession(), session.startSession(), session.sessionReady()]);
    expect(request).toHaveBeenCalledTimes(1);
    expect(request).toHaveBeenCalledWith('getCart');
    expect($cartItemCount.get()).toBe(2);
    expect($customer.get()?.id).toBe('guest');
    expect($viewer.get()).toMatchObject({ username: 'ada', databaseId: 5 });
    expect($paymentGateways.get().map((g) => g.id)).toEqual(['cod']);
    expect($loginClients.get()).toHaveLength(1);
    expect(session.$sessionStatus.get()).toBe('ready');
    // The viewer's token wins over the guest customer's.
    expect(jar.values.get('woocommerce-session')).toBe('user-token');
  });

  it('keeps the fresh session token in a cookie by default, or in localStorage when configured', async () => {
    request.mockResolvedValueOnce(getCartResult());
    await session.startSession();
    expect(session.getSessionToken()).toBe('fresh-token');
    expect(jar.values.get('woocommerce-session')).toBe('fresh-token');

    session.resetSessionModule();
    session.useTokenStorage('localStorage');
    jar.values.clear();
    request.mockResolvedValueOnce(getCartResult());
    await session.startSession();
    expect(local.getItem(session.SESSION_STORAGE_KEY)).toBe('fresh-token');
    expect(jar.values.has('woocommerce-session')).toBe(false);
  });

  it('reads a stored token before the first request', () => {
    jar.cookie = 'woocommerce-session=stored; Path=/; Max-Age=100';
    expect(session.getSessionToken()).toBe('stored');
  });
});

describe('session failure', () => {
  it('on an API error: cookies cleared, cart and gateways reset, local storage cleared, logout and reload once per visitor', async () => {
    $cart.set(cart(1) as never);
    $paymentGateways.set([{ id: 'cod', title: 'COD', description: null, icon: null }]);
    $viewer.set({ username: 'ada' });
    jar.cookie = 'woocommerce-session=old; Max-Age=100';
    jar.cookie = 'meshfront-auth=jwt; Max-Age=100';
    jar.cookie = 'locale=de_DE; Max-Age=100';
    local.setItem('meshfront:viewer', '{"username":"ada"}');
    local.setItem('meshfront:wishlist', '[]');
    local.setItem('something', 'x');

    const first = env();
    const outcome = await session.handleSessionFailure(apiError('invalid_token: Expired token'), first);
    expect(outcome).toEqual({ kind: 'failed', reloaded: true });
    expect(first.reload).toHaveBeenCalledTimes(1);
    expect($cart.get()).toBeNull();
    expect($paymentGateways.get()).toEqual([]);
    expect($viewer.get()).toBeNull();
    expect(jar.values.has('woocommerce-session')).toBe(false);
    expect(jar.values.has('meshfront-auth')).toBe(false);
    expect(jar.values.get('locale')).toBe('de_DE');
    expect(jar.values.get('meshfront-reload-count')).toBe('1');
    expect(local.getItem('something')).toBeNull();
    expect(local.getItem('meshfront:wishlist')).toBe('[]');

    // Second failure for the same visitor: state reset again, but no second logout-and-reload.
    const second = env();
    expect(await session.handleSessionFailure(apiError('Internal server error'), second)).toEqual({
      kind: 'failed',
      reloaded: false,
    });
    expect(second.reload).not.toHaveBeenCalled();
  });

  it("'The iss do not match with this server' and 'Invalid session token' clear cookies and storage and reload every time (but not in a loop)", async () => {
    jar.cookie = 'meshfront-reload-count=1; Max-Age=100';
    jar.cookie = 'woocommerce-session=foreign; Max-Age=100';
    local.setItem('meshfront:viewer', '{"username":"ada"}');
    const e = env();
    expect(
      await session.handleSessionFailure(apiError('invalid_token: The iss do not match with this server'), e),
    ).toEqual({ kind: 'reset', reloaded: true });
    expect(e.reload).toHaveBeenCalledTimes(1);
    expect(jar.values.has('woocommerce-session')).toBe(false);
    expect(local.getItem('meshfront:viewer')).toBeNull();
    // Same tab, seconds later, same answer: no reload loop.
    expect(await session.handleSessionFailure(apiError('Invalid session token'), e)).toEqual({
      kind: 'reset',
      reloaded: false,
    });
    expect(e.reload).toHaveBeenCalledTimes(1);
  });

  it('a timeout keeps the stored session and tells the user', async () => {
    jar.cookie = 'woocommerce-session=keep; Max-Age=100';
    local.setItem('something', 'x');
    $cart.set(cart(1) as never);
    const e = env();
    expect(await session.handleSessionFailure(new TimeoutError('getCart', 15000), e)).toEqual({
      kind: 'transient',
      reloaded: false,
    });
    expect(e.reload).not.toHaveBeenCalled();
    expect(jar.values.get('woocommerce-session')).toBe('keep');
    expect(local.getItem('something')).toBe('x');
    expect($cart.get()).toBeNull();
    expect($alert.get()?.type).toBe('danger');
  });

  it('a failed start can be retried', async () => {
    // A reload is attempted on the first failure; keep it away from the real location.
    Object.assign(globalThis, { location: { reload: vi.fn(), protocol: 'http:' } });
    request.mockRejectedValueOnce(new TimeoutError('getCart', 1));
    await expect(session.startSession()).rejects.toThrow(/timed out/);
    expect(session.$sessionStatus.get()).toBe('error');
    request.mockResolvedValueOnce(getCartResult());
    await session.startSession();
    expect(request).toHaveBeenCalledTimes(2);
    expect(session.$sessionStatus.get()).toBe('ready');
  });
});

describe('the login before each request', () => {
  const jwt = (exp: number) => `h.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.s`;
  const now = () => Math.floor(Date.now() / 1000);

  it("refreshes a due auth token before a request (the engine serves a customer's session only with a valid login)", async () => {
    const fresh = jwt(now() + 300);
    session.setLoginTokens({ authToken: jwt(now() - 10), refreshToken: 'refresh-1' });
    request.mockResolvedValueOnce({ refreshToken: { success: true, authToken: fresh, refreshToken: 'refresh-2' } });
    await clientConfig.beforeRequest!('addToCart');
    // The refresh call carries no session token and keeps none: it is not about the cart.
    expect(request).toHaveBeenCalledWith('refreshToken', { refreshToken: 'refresh-1' }, { withSession: false });
    expect(session.getAuthToken()).toBe(fresh);
    expect(session.getRefreshToken()).toBe('refresh-2');

    // A fresh token: nothing to do.
    request.mockClear();
    await clientConfig.beforeRequest!('getCart');
    expect(request).not.toHaveBeenCalled();
    session.setLoginTokens(null);
  });

  it('never refreshes before the refresh itself, logout or a new login', async () => {
    session.setLoginTokens({ authToken: jwt(now() - 10), refreshToken: 'refresh-1' });
    for (const name of ['refreshToken', 'Logout', 'login', 'loginWithProvider', 'registerCustomer'] as const)
      await clientConfig.beforeRequest!(name);
    expect(request).not.toHaveBeenCalled();
    session.setLoginTokens(null);
  });
});
