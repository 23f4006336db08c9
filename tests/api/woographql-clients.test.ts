// Types and fields WooGraphQL storefronts ask for, so their documents validate against the engine's schema:
// `GroupProduct` (inline fragments in product and cart documents; the catalog sells no grouped products, so
// none is ever one) and `Order.customer` (checkout, order and orders documents), which shows the account to
// that customer's own login only — an order-key holder sees the order, not the account —, and
// `User.stripeCustomerId`/`savedPaymentMethods` (WooNuxt's viewer fragment in every cart document).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersOf, placeOrder, register } from './accounts-helpers.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';
import { productId } from './shop-helpers.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
}, ENGINE_START_TIMEOUT_MS);
afterAll(() => t?.close());

describe('GroupProduct', () => {
  it('a product list with an inline fragment on GroupProduct validates and answers; no product is one', async () => {
    const r = await t.gql(/* GraphQL */ `
      query {
        products(first: 100) {
          nodes {
            __typename
            name
            ... on GroupProduct { addToCartText addToCartDescription products { nodes { id } } price }
            ... on SimpleProduct { price }
          }
        }
      }
    `);
    expect(r.body.errors).toBeUndefined();
    const types = new Set(r.body.data.products.nodes.map((n: { __typename: string }) => n.__typename));
    expect(types.has('SimpleProduct')).toBe(true);
    expect(types.has('GroupProduct')).toBe(false);
  });
});

describe('Order.customer', () => {
  const ORDER = /* GraphQL */ `
    query($id: ID!, $key: String) {
      order(id: $id, idType: DATABASE_ID, orderKey: $key) { databaseId customer { databaseId email } }
    }
  `;

  it("is the customer's account for their own login, and null for the order-key holder", async () => {
    const c = await register(t);
    const product = await productId(t, 'omni-antenna');
    const order = await placeOrder(t, { customerId: String(c.userId), productId: product, status: 'processing' });
    const own = await t.gql(ORDER, { id: String(order.id) }, headersOf({ authToken: c.authToken }));
    expect(own.body.errors).toBeUndefined();
    expect(own.body.data.order.customer).toEqual({ databaseId: c.userId, email: c.email });

    const byKey = await t.gql(ORDER, { id: String(order.id), key: order.orderKey });
    expect(byKey.body.errors).toBeUndefined();
    expect(byKey.body.data.order).toEqual({ databaseId: order.id, customer: null });
  });
});

describe('User.stripeCustomerId and User.savedPaymentMethods', () => {
  // The viewer fields a WooNuxt cart document asks for (the WooNuxt settings plugin's saved cards).
  const VIEWER = /* GraphQL */ `
    query {
      viewer {
        databaseId
        wooSessionToken
        stripeCustomerId
        savedPaymentMethods { id token customerId last4 expiryMonth expiryYear cardType isDefault }
      }
    }
  `;

  it('validate and say the truth: no card customer, no saved cards', async () => {
    const c = await register(t);
    const r = await t.gql(VIEWER, {}, headersOf({ authToken: c.authToken }));
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.viewer).toMatchObject({ databaseId: c.userId, stripeCustomerId: null, savedPaymentMethods: [] });
  });
});
