// The `woocommerce-session` cookie (src/server/session/cookie.ts): a client that never reads response
// headers keeps its cart through the cookie the engine sets beside the header; the header wins over the
// cookie; the cookie never counts on a request a cross-site form could send; a logout hands out a fresh
// guest cookie; SESSION_COOKIE=false turns it off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersOf, newCustomer, op, register } from './accounts-helpers.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';
import { CART, operation, productId } from './shop-helpers.ts';

const ADD_TO_CART = operation('addToCart');

let t: TestEngine;
let antenna: number;
beforeAll(async () => {
  t = await startTestEngine();
  antenna = await productId(t, 'omni-antenna');
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
}, ENGINE_START_TIMEOUT_MS);

/** The cookie a response sets: its value and attributes. */
function sessionCookieOf(headers: Headers): { value: string; attributes: string[] } | null {
  const cookie = headers.getSetCookie().find((c) => c.startsWith('woocommerce-session='));
  if (!cookie) return null;
  const [pair, ...attributes] = cookie.split(';').map((part) => part.trim());
  return { value: pair!.slice('woocommerce-session='.length), attributes };
}

const cartLines = async (headers: Record<string, string>) => {
  const r = await t.gql(CART, {}, headers);
  expect(r.body.errors).toBeUndefined();
  return r.body.data.cart.contents.nodes.map((n: { quantity: number }) => n.quantity);
};

describe('the session cookie', () => {
  it("keeps a first visitor's cart for a client that only keeps cookies", async () => {
    const first = await t.gql(ADD_TO_CART, { productId: antenna, quantity: 2 });
    expect(first.body.errors).toBeUndefined();
    const token = first.headers.get('woocommerce-session');
    expect(token).toBeTruthy();
    const cookie = sessionCookieOf(first.headers);
    expect(cookie).toEqual({ value: token, attributes: ['Path=/', 'Max-Age=172800', 'SameSite=Lax'] });

    // The next request carries the cookie only, as a browser does: same session, same cart, no new token.
    const next = await t.gql(CART, {}, { cookie: `theme=dark; woocommerce-session=${cookie!.value}` });
    expect(next.body.data.cart.contents.nodes.map((n: { quantity: number }) => n.quantity)).toEqual([2]);
    expect(next.headers.get('woocommerce-session')).toBeNull();
    expect(sessionCookieOf(next.headers)).toBeNull();
  });

  it('serves the session of the header when both are sent', async () => {
    const a = (await t.gql(ADD_TO_CART, { productId: antenna, quantity: 1 })).headers.get('woocommerce-session')!;
    const b = (await t.gql(ADD_TO_CART, { productId: antenna, quantity: 3 })).headers.get('woocommerce-session')!;
    expect(await cartLines({ 'woocommerce-session': `Session ${a}`, cookie: `woocommerce-session=${b}` })).toEqual([1]);
  });

  it('does not count on a request a page of another site could send (form content types)', async () => {
    const token = (await t.gql(ADD_TO_CART, { productId: antenna, quantity: 1 })).headers.get('woocommerce-session')!;
    const form = new FormData();
    form.set('operations', JSON.stringify({ query: ADD_TO_CART, variables: { productId: antenna, quantity: 5 } }));
    form.set('map', '{}');
    for (const body of [
      form,
      new URLSearchParams({ query: ADD_TO_CART, variables: JSON.stringify({ productId: antenna, quantity: 5 }) }),
    ]) {
      await t.fetch({ method: 'POST', headers: { cookie: `woocommerce-session=${token}` }, body });
    }
    // Whatever those requests did, they did not reach this session's cart.
    expect(await cartLines({ cookie: `woocommerce-session=${token}` })).toEqual([1]);
  });

  it('hands out a fresh guest cookie at logout; a cookie with a bad value starts a new session', async () => {
    const c = await register(t, newCustomer('cookie'), headersOf({}, '192.0.2.71'));
    const out = await t.gql(op('Logout'), {}, headersOf(c));
    expect(out.body.data.logout.success).toBe(true);
    const after = sessionCookieOf(out.headers);
    expect(after?.value).toBeTruthy();
    expect(after!.value).not.toBe(c.sessionToken);
    expect(after!.value).toBe(out.headers.get('woocommerce-session'));

    const bad = await t.gql(CART, {}, { cookie: 'woocommerce-session=not a token' });
    expect(bad.body.data.cart.isEmpty).toBe(true);
    expect(sessionCookieOf(bad.headers)?.value).toBe(bad.headers.get('woocommerce-session'));
  });
});

describe('SESSION_COOKIE=false', () => {
  let off: TestEngine;
  beforeAll(async () => {
    off = await startTestEngine({ env: { SESSION_COOKIE: 'false' } });
  }, ENGINE_START_TIMEOUT_MS);
  afterAll(async () => {
    await off?.close();
  }, ENGINE_START_TIMEOUT_MS);

  it('sets no cookie and ignores one', async () => {
    const first = await off.gql(ADD_TO_CART, { productId: antenna, quantity: 1 });
    const token = first.headers.get('woocommerce-session')!;
    expect(token).toBeTruthy();
    expect(sessionCookieOf(first.headers)).toBeNull();
    const next = await off.gql(CART, {}, { cookie: `woocommerce-session=${token}` });
    expect(next.body.data.cart.isEmpty).toBe(true);
  });
});
