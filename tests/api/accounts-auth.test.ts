// Registration, password login, auth tokens (JWT), refresh-token rotation, logout and the viewer,
// through the storefront's own documents; rate limits per IP and per account; the guest cart's hand-over.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readAuthSettings } from '../../src/server/auth/settings.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { headersOf, login, newCustomer, op, register } from './accounts-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: TestEngine;
let ipCounter = 0;
/** A fresh client address per test, so per-IP limits of one test do not leak into another. */
const ip = () => `198.51.100.${++ipCounter}`;

beforeAll(async () => {
  process.env.TRUST_PROXY = '1';
  process.env.PASSWORD_SCRYPT_LOG2N = '12';
  process.env.LOGIN_LIMIT_PER_IP = '8';
  process.env.LOGIN_LIMIT_PER_ACCOUNT = '5';
  process.env.REGISTER_LIMIT_PER_IP = '4';
  t = await startTestEngine();
});
afterAll(async () => {
  await t?.close();
});

const VIEWER = /* GraphQL */ `query { viewer { databaseId username email firstName lastName nicename wooSessionToken avatar { url } } }`;

describe('registerCustomer', () => {
  it('creates the account, logs it in and returns the customer and viewer', async () => {
    const c = newCustomer('reg');
    const r = await t.gql(op('registerCustomer'), c, headersOf({}, ip()));
    expect(r.body.errors).toBeUndefined();
    const p = r.body.data.registerCustomer;
    expect(p.authToken).toMatch(/^ey/);
    expect(p.refreshToken.length).toBeGreaterThan(30);
    expect(p.viewer).toMatchObject({
      username: c.username,
      email: c.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      nicename: c.username.toLowerCase(),
    });
    expect(p.viewer.avatar.url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?/);
    expect(p.customer).toMatchObject({
      username: c.username,
      email: c.email,
      databaseId: p.viewer.databaseId,
      isPayingCustomer: false,
    });
    expect(p.customer.billing).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: c.email,
      address1: '',
      // No address yet: the country the shop assumes (its base country), as the cart's estimate does.
      country: 'DE',
    });
    expect(p.customer.shipping).toMatchObject({ firstName: 'Ada', address1: '', city: '' });
    const v = await t.gql(VIEWER, {}, headersOf({ authToken: p.authToken }));
    expect(v.body.data.viewer).toMatchObject({ databaseId: p.viewer.databaseId, username: c.username });
  });

  it('refuses a duplicate e-mail, a duplicate username, a bad e-mail and weak passwords', async () => {
    const c = await register(t, newCustomer('dup'), headersOf({}, ip()));
    const h = headersOf({}, ip());
    const again = async (vars: Record<string, unknown>) =>
      (await t.gql(op('registerCustomer'), vars, h)).body.errors?.[0]?.message;
    expect(await again({ ...newCustomer(), email: c.email.toUpperCase() })).toBe(
      'An account is already registered with your email address. Please log in.',
    );
    expect(await again({ ...newCustomer(), username: c.username })).toBe(
      'An account is already registered with that username. Please choose another.',
    );
    const h2 = headersOf({}, ip());
    const again2 = async (vars: Record<string, unknown>) =>
      (await t.gql(op('registerCustomer'), vars, h2)).body.errors?.[0]?.message;
    expect(await again2({ ...newCustomer(), email: 'not-an-email' })).toBe('Please provide a valid email address.');
    expect(await again2({ ...newCustomer(), password: 'short1' })).toBe('Password must be at least 8 characters long.');
    expect(await again2({ ...newCustomer(), password: 'x'.repeat(257) })).toBe(
      'Password must be at most 256 characters long.',
    );
    const h3 = headersOf({}, ip());
    expect(
      (await t.gql(op('registerCustomer'), { ...newCustomer(), password: 'password123' }, h3)).body.errors?.[0]
        ?.message,
    ).toBe('This password is too common. Please choose a less common password.');
    expect(
      (await t.gql(op('registerCustomer'), { ...newCustomer(), password: 'Qwerty123' }, h3)).body.errors?.[0]?.message,
    ).toMatch(/too common/);
    // 64 characters and beyond are fine.
    const long = await t.gql(op('registerCustomer'), { ...newCustomer(), password: 'k9!'.repeat(40) }, h3);
    expect(long.body.errors).toBeUndefined();
  });

  it('is rate-limited per IP', async () => {
    const h = headersOf({}, ip());
    for (let i = 0; i < 4; i++)
      expect((await t.gql(op('registerCustomer'), newCustomer('rl'), h)).body.errors).toBeUndefined();
    const r = await t.gql(op('registerCustomer'), newCustomer('rl'), h);
    expect(r.body.errors?.[0]?.message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    expect(r.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
  });
});

describe('login', () => {
  it('logs in with the username or the e-mail and returns the Headless Login payload', async () => {
    const c = await register(t, newCustomer('login'), headersOf({}, ip()));
    for (const name of [c.username, c.email, c.email.toUpperCase()]) {
      const r = await login(t, name, c.password, headersOf({}, ip()));
      expect(r.body.errors).toBeUndefined();
      const p = r.body.data.login;
      const now = Date.now() / 1000;
      expect(Number(p.authTokenExpiration)).toBeGreaterThan(now + 200);
      expect(Number(p.authTokenExpiration)).toBeLessThan(now + 400);
      expect(Number(p.refreshTokenExpiration)).toBeGreaterThan(now + 86_400);
      expect(p.user).toMatchObject({ databaseId: c.userId, username: c.username, email: c.email });
      expect(p.customer).toMatchObject({ databaseId: c.userId, username: c.username });
      expect(p.sessionToken).toBeTruthy();
      expect(p.user.wooSessionToken).toBeTruthy();
    }
  });

  it('says which of username and password is wrong', async () => {
    const c = await register(t, newCustomer('wrong'), headersOf({}, ip()));
    const h = headersOf({}, ip());
    expect((await login(t, `nobody-${c.username}`, c.password, h)).body.errors?.[0]?.message).toBe(
      'No account found with that username. Sign up for a new account.',
    );
    expect((await login(t, c.username, `${c.password}x`, h)).body.errors?.[0]?.message).toBe(
      'Incorrect password. Please try again.',
    );
    expect((await login(t, c.username, '', h)).body.errors?.[0]?.message).toBe('Missing username or password.');
  });

  it('is rate-limited per account from one address, and per IP across accounts', async () => {
    const c = await register(t, newCustomer('rlacct'), headersOf({}, ip()));
    const guesser = headersOf({}, ip());
    for (let i = 0; i < 5; i++)
      expect(
        (await login(t, i % 2 ? c.email : c.username, 'wrong-password-1', guesser)).body.errors?.[0]?.message,
      ).toBe('Incorrect password. Please try again.');
    // Even the right password is refused now from that address (username and e-mail share one budget) …
    const blocked = await login(t, c.username, c.password, guesser);
    expect(blocked.body.errors?.[0]?.message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    // … but not from another one: failures elsewhere never lock the owner out (tests/api/trust-accounts.test.ts).
    expect((await login(t, c.username, c.password, headersOf({}, ip()))).body.errors).toBeUndefined();

    const h = headersOf({}, ip());
    for (let i = 0; i < 8; i++) await login(t, `ghost${i}-${c.username}`, 'whatever-123', h);
    const r = await login(t, `ghost-last-${c.username}`, 'whatever-123', h);
    expect(r.body.errors?.[0]?.message).toMatch(/^Too many attempts/);
  });

  it('refuses a second login while logged in', async () => {
    const c = await register(t, newCustomer('twice'), headersOf({}, ip()));
    const r = await login(t, c.username, c.password, headersOf({ authToken: c.authToken }, ip()));
    expect(r.body.errors?.[0]?.message).toBe('You are already logged in.');
  });
});

describe('auth tokens', () => {
  const signWith = async (
    key: Uint8Array,
    claims: Record<string, unknown>,
    opts: { sub: string; iss: string; exp: number },
  ) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(opts.sub)
      .setIssuer(opts.iss)
      .setIssuedAt()
      .setExpirationTime(opts.exp)
      .sign(key);

  it('refuses a wrong signature, another issuer, an expired token and a token for a deleted user', async () => {
    const c = await register(t, newCustomer('jwt'), headersOf({}, ip()));
    const settings = readAuthSettings(t.config, process.env);
    const [, payloadB64] = c.authToken.split('.');
    const claims = JSON.parse(Buffer.from(payloadB64!, 'base64url').toString());
    const now = Math.floor(Date.now() / 1000);
    const viewerError = async (token: string) => {
      const r = await t.gql(op('getOrders'), {}, headersOf({ authToken: token }));
      return r.body.errors?.[0]?.message;
    };
    const otherKey = new TextEncoder().encode('another-secret-that-is-long-enough-0123456789');
    expect(
      await viewerError(
        await signWith(otherKey, claims, { sub: String(c.userId), iss: settings.issuer, exp: now + 300 }),
      ),
    ).toBe('Signature verification failed');
    expect(
      await viewerError(
        await signWith(settings.keys.access, claims, {
          sub: String(c.userId),
          iss: 'http://evil.test',
          exp: now + 300,
        }),
      ),
    ).toBe('The iss do not match with this server');
    expect(
      await viewerError(
        await signWith(settings.keys.access, claims, { sub: String(c.userId), iss: settings.issuer, exp: now - 60 }),
      ),
    ).toBe('Expired token');
    // Someone else's id in a token signed with the right key but a made-up login is refused too.
    expect(
      await viewerError(
        await signWith(
          settings.keys.access,
          { ...claims, sid: 'made-up' },
          { sub: String(c.userId), iss: settings.issuer, exp: now + 300 },
        ),
      ),
    ).toBe('The User Secret does not match or has been revoked for this user');
    // The valid token works; an invalid one shows no viewer.
    expect((await t.gql(VIEWER, {}, headersOf({ authToken: c.authToken }))).body.data.viewer.databaseId).toBe(c.userId);
    expect(
      (await t.gql(VIEWER, {}, headersOf({ authToken: `${c.authToken.slice(0, -2)}xx` }))).body.data.viewer,
    ).toBeNull();
    await t.engine.accounts.customers.delete(c.userId);
    expect(await viewerError(c.authToken)).toBe('The user could not be found');
    expect((await t.gql(VIEWER, {}, headersOf({ authToken: c.authToken }))).body.data.viewer).toBeNull();
  });
});

const REFRESH = /* GraphQL */ `mutation ($t: String!) { refreshToken(input: { refreshToken: $t }) { authToken authTokenExpiration refreshToken refreshTokenExpiration success } }`;

describe('refresh tokens and logout', () => {
  it('rotates the refresh token; the old one is refused and its reuse ends the login', async () => {
    const c = await register(t, newCustomer('refresh'), headersOf({}, ip()));
    const r1 = (await t.gql(REFRESH, { t: c.refreshToken })).body.data.refreshToken;
    expect(r1.success).toBe(true);
    expect(r1.refreshToken).not.toBe(c.refreshToken);
    expect((await t.gql(VIEWER, {}, headersOf({ authToken: r1.authToken }))).body.data.viewer.databaseId).toBe(
      c.userId,
    );
    // The old token again: refused, and the whole login is revoked (stolen-token detection).
    const replay = (await t.gql(REFRESH, { t: c.refreshToken })).body.data.refreshToken;
    expect(replay).toMatchObject({ success: false, authToken: null });
    expect((await t.gql(REFRESH, { t: r1.refreshToken })).body.data.refreshToken.success).toBe(false);
    expect((await t.gql(VIEWER, {}, headersOf({ authToken: r1.authToken }))).body.data.viewer).toBeNull();
    expect((await t.gql(REFRESH, { t: 'garbage' })).body.data.refreshToken.success).toBe(false);
  });

  it('Logout revokes the refresh token and the auth token on the server', async () => {
    const c = await register(t, newCustomer('logout'), headersOf({}, ip()));
    const out = await t.gql(op('Logout'), {}, headersOf({ authToken: c.authToken }));
    expect(out.body.data.logout.success).toBe(true);
    expect((await t.gql(REFRESH, { t: c.refreshToken })).body.data.refreshToken.success).toBe(false);
    expect((await t.gql(VIEWER, {}, headersOf({ authToken: c.authToken }))).body.data.viewer).toBeNull();
    // Logging out a guest: success null, nothing else happens.
    expect((await t.gql(op('Logout'), {})).body.data.logout.success).toBeNull();
  });

  it('logout with all: true ends every login of the customer', async () => {
    const c = await register(t, newCustomer('all'), headersOf({}, ip()));
    const second = (await login(t, c.username, c.password, headersOf({}, ip()))).body.data.login;
    const out = await t.gql(
      `mutation { logout(input: { all: true }) { success } }`,
      {},
      headersOf({ authToken: c.authToken }),
    );
    expect(out.body.data.logout.success).toBe(true);
    expect((await t.gql(VIEWER, {}, headersOf({ authToken: second.authToken }))).body.data.viewer).toBeNull();
    expect((await t.gql(REFRESH, { t: second.refreshToken })).body.data.refreshToken.success).toBe(false);
  });
});

describe('guest session hand-over on login', () => {
  const ADD = /* GraphQL */ `mutation ($id: Int!) { addToCart(input: { productId: $id, quantity: 2 }) { cart { contents { itemCount } } } }`;
  const CART = /* GraphQL */ `query { cart { contents { itemCount nodes { product { node { databaseId } } } } } customer { databaseId sessionToken } }`;

  it('the guest cart becomes the customer’s cart; a later empty guest session falls back to it', async () => {
    const c = await register(t, newCustomer('cart'), headersOf({}, ip()));
    const products = await t.data<{ products: { nodes: { databaseId: number; type: string }[] } }>(
      `query { products(first: 50) { nodes { databaseId type } } }`,
    );
    const simple = products.products.nodes.find((p) => p.type === 'SIMPLE')!;
    // A guest fills a cart.
    const start = await t.gql(`query { customer { sessionToken } }`);
    const guestToken = start.body.data.customer.sessionToken;
    const added = await t.gql(ADD, { id: simple.databaseId }, headersOf({ sessionToken: guestToken }));
    expect(added.body.errors).toBeUndefined();
    // Logs in with that session: the payload's session token opens the same cart under the user id.
    const r = await login(t, c.username, c.password, { ...headersOf({ sessionToken: guestToken }, ip()) });
    const p = r.body.data.login;
    expect(p.customer.databaseId).toBe(c.userId);
    const mine = await t.gql(CART, {}, headersOf({ authToken: p.authToken, sessionToken: p.sessionToken }));
    expect(mine.body.data.cart.contents.itemCount).toBe(2);
    expect(mine.body.data.customer.databaseId).toBe(c.userId);
    // The guest token no longer holds the cart.
    const old = await t.gql(CART, {}, headersOf({ sessionToken: guestToken }));
    expect(old.body.data.cart.contents.itemCount).toBe(0);
    // From another device (fresh guest session, empty), the login brings the stored cart back.
    const other = await t.gql(`query { customer { sessionToken } }`);
    const r2 = await login(
      t,
      c.username,
      c.password,
      headersOf({ sessionToken: other.body.data.customer.sessionToken }, ip()),
    );
    const again = await t.gql(
      CART,
      {},
      headersOf({ authToken: r2.body.data.login.authToken, sessionToken: r2.body.data.login.sessionToken }),
    );
    expect(again.body.data.cart.contents.itemCount).toBe(2);
    // A request with the Bearer token and another guest's session is moved onto the customer's session.
    const stray = await t.gql(`query { customer { sessionToken } }`);
    const moved = await t.gql(
      CART,
      {},
      headersOf({ authToken: r2.body.data.login.authToken, sessionToken: stray.body.data.customer.sessionToken }),
    );
    expect(moved.body.data.cart.contents.itemCount).toBe(2);
    expect(moved.body.data.customer.databaseId).toBe(c.userId);
  });
});
