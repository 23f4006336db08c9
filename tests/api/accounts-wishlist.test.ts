// The server-side wishlist (add / remove / merge on login, newest first) and that nobody reads another
// customer's; plus every account operation of the storefront validates against the engine's schema.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestEngine, type TestEngine } from './harness.ts';
import { headersOf, newCustomer, op, register } from './accounts-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: TestEngine;
let ipCounter = 0;
const ip = () => `172.16.0.${++ipCounter}`;
let ids: Record<string, number>;

const WISHLIST = /* GraphQL */ `query { customer { databaseId wishlist { nodes { databaseId slug } } } }`;
const ADD = /* GraphQL */ `mutation ($id: Int!) { addToWishlist(input: { productId: $id }) { productIds customer { wishlist { nodes { slug } } } } }`;
const REMOVE = /* GraphQL */ `mutation ($id: Int!) { removeFromWishlist(input: { productId: $id }) { productIds } }`;
const MERGE = /* GraphQL */ `mutation ($ids: [Int!]!) { mergeWishlist(input: { productIds: $ids }) { productIds } }`;

beforeAll(async () => {
  process.env.TRUST_PROXY = '1';
  process.env.PASSWORD_SCRYPT_LOG2N = '12';
  t = await startTestEngine();
  const snap = await t.engine.catalog.snapshot();
  ids = Object.fromEntries([...snap.productsById.values()].map((p) => [p.slug, p.id]));
});
afterAll(async () => {
  await t?.close();
});

describe('wishlist', () => {
  it('adds, lists newest first, removes; refuses unknown and unpublished products', async () => {
    const c = await register(t, newCustomer('wish'), headersOf({}, ip()));
    const h = headersOf({ authToken: c.authToken });
    expect((await t.gql(ADD, { id: ids['omni-antenna'] }, h)).body.data.addToWishlist.productIds).toEqual([
      ids['omni-antenna'],
    ]);
    await new Promise((r) => setTimeout(r, 5));
    const second = await t.gql(ADD, { id: ids['alpha-gateway'] }, h);
    expect(second.body.data.addToWishlist.productIds).toEqual([ids['alpha-gateway'], ids['omni-antenna']]);
    expect(second.body.data.addToWishlist.customer.wishlist.nodes.map((n: { slug: string }) => n.slug)).toEqual([
      'alpha-gateway',
      'omni-antenna',
    ]);
    // Adding again changes nothing.
    expect((await t.gql(ADD, { id: ids['omni-antenna'] }, h)).body.data.addToWishlist.productIds).toHaveLength(2);
    expect((await t.gql(ADD, { id: 987654 }, h)).body.errors?.[0]?.message).toBe(
      'No product found matching the ID provided',
    );
    expect((await t.gql(ADD, { id: ids['draft-prototype'] }, h)).body.errors?.[0]?.message).toBe(
      'No product found matching the ID provided',
    );
    expect((await t.gql(REMOVE, { id: ids['alpha-gateway'] }, h)).body.data.removeFromWishlist.productIds).toEqual([
      ids['omni-antenna'],
    ]);
    const list = await t.gql(WISHLIST, {}, h);
    expect(list.body.data.customer.wishlist.nodes.map((n: { slug: string }) => n.slug)).toEqual(['omni-antenna']);
  });

  it('merges the browser’s list after login (unknown ids ignored, no duplicates)', async () => {
    const c = await register(t, newCustomer('merge'), headersOf({}, ip()));
    const h = headersOf({ authToken: c.authToken });
    await t.gql(ADD, { id: ids['omni-antenna'] }, h);
    const r = await t.gql(MERGE, { ids: [ids['mesh-hoodie'], ids['omni-antenna'], 424242, ids['yagi-antenna']] }, h);
    expect(r.body.errors).toBeUndefined();
    expect(new Set(r.body.data.mergeWishlist.productIds)).toEqual(
      new Set([ids['mesh-hoodie'], ids['omni-antenna'], ids['yagi-antenna']]),
    );
    expect(r.body.data.mergeWishlist.productIds).toHaveLength(3);
  });

  it('belongs to its customer: guests and others see nothing and cannot change it', async () => {
    const a = await register(t, newCustomer('wa'), headersOf({}, ip()));
    const b = await register(t, newCustomer('wb'), headersOf({}, ip()));
    await t.gql(ADD, { id: ids['omni-antenna'] }, headersOf({ authToken: a.authToken }));
    const hb = headersOf({ authToken: b.authToken, sessionToken: b.sessionToken });
    expect((await t.gql(WISHLIST, {}, hb)).body.data.customer.wishlist.nodes).toEqual([]);
    const byId = await t.gql(
      `query ($id: Int) { customer(customerId: $id) { wishlist { nodes { slug } } } }`,
      { id: a.userId },
      hb,
    );
    expect(byId.body.data.customer).toBeNull();
    // A's session token without A's login.
    expect(
      (await t.gql(WISHLIST, {}, headersOf({ sessionToken: a.sessionToken }))).body.data.customer.wishlist.nodes,
    ).toEqual([]);
    // Guests cannot add (their list stays in the browser).
    const guest = await t.gql(ADD, { id: ids['omni-antenna'] });
    expect(guest.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    // B removing A's item touches only B's (empty) list.
    await t.gql(REMOVE, { id: ids['omni-antenna'] }, hb);
    expect(await t.engine.accounts.wishlist.productIds(a.userId)).toEqual([ids['omni-antenna']]);
  });
});

describe('the storefront’s account operations', () => {
  it('validate against the engine schema and run', async () => {
    const vars: Record<string, Record<string, unknown>> = {
      login: { username: 'nobody', password: 'whatever-123' },
      loginWithProvider: { provider: 'GOOGLE', code: 'c', state: 's' },
      Logout: {},
      registerCustomer: { email: 'x', password: 'y' },
      ResetPasswordEmail: { username: '' },
      ResetPasswordKey: { key: '', login: '', password: '' },
      updatePassword: { id: 'x', currentPassword: 'a', password: 'b' },
      UpdateCustomer: { input: {} },
      WriteReview: { commentOn: 1, rating: 9, content: '', author: '', authorEmail: '' },
      getOrders: {},
      getDownloads: {},
      getCart: {},
      getOrder: { id: '1' },
      refreshToken: { refreshToken: 'not-a-refresh-token' },
      getWishlist: {},
      addToWishlist: { productId: 1 },
      removeFromWishlist: { productId: 1 },
      mergeWishlist: { productIds: [1] },
    };
    for (const [name, variables] of Object.entries(vars)) {
      const r = await t.gql(op(name), variables, headersOf({}, ip()));
      expect(r.status, name).toBe(200);
      const codes = (r.body.errors ?? []).map((e) => e.extensions?.code);
      expect(codes, `${name}: ${JSON.stringify(r.body.errors)}`).not.toContain('GRAPHQL_VALIDATION_FAILED');
      expect(r.body.data, name).toBeTruthy();
    }
  });
});
