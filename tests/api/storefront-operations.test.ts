// The storefront's own operation documents (src/graphql/operations + fragments) against this engine:
// every catalog operation must validate, pass the query limits and run without errors on the fixture
// catalog, and be accepted in trusted-documents mode.
import path from 'node:path';
import { createRequire } from 'node:module';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeOperations } from '../../src/server/http/trusted-documents.ts';
import { createMeshfrontYoga } from '../../src/server/http/yoga.ts';
import { buildSchema } from '../../src/server/schema/index.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';

const OPERATIONS_DIR = path.resolve(import.meta.dirname, '../../src/graphql/operations');

/** Catalog operations and the variables to run each with (several runs where the product type matters). */
const CATALOG: Record<string, Record<string, unknown>[]> = {
  getProducts: [
    {},
    { first: 3 },
    {
      first: 100,
      where: {
        categoryIn: ['gateways'],
        visibility: 'VISIBLE',
        status: 'publish',
        orderby: [{ field: 'PRICE', order: 'ASC' }],
      },
    },
  ],
  getProduct: [
    { slug: 'alpha-gateway' },
    { slug: 'mesh-hoodie' },
    { slug: 'omni-antenna' },
    { slug: 'partner-solar-kit' },
    { slug: 'mesh-os' },
    { slug: 'no-such-product' },
  ],
  getProductCategories: [{}, { first: 3, hideEmpty: false }],
  getAllTerms: [
    { taxonomies: ['PACOLOR', 'PASIZE', 'PAFREQUENCYBAND'] },
    { taxonomies: ['PRODUCTCATEGORY'], hideEmpty: true },
  ],
  getAllowedCountries: [{}],
  getStates: [{ country: 'US' }, { country: 'FR' }],
  getStockStatus: [{ slug: 'alpha-gateway' }, { slug: 'bravo-outdoor-gateway' }, { slug: 'partner-solar-kit' }],
};

/** Not catalog operations: cart, checkout and account flows run them in their own test files; here each must validate. */
const LATER: Record<string, string> = {
  getCart: 'cart issue (#4)',
  addToCart: 'cart issue (#4)',
  applyCoupon: 'cart issue (#4)',
  removeCoupons: 'cart issue (#4)',
  UpDateCartQuantity: 'cart issue (#4)',
  ChangeShippingMethod: 'cart issue (#4)',
  ChangeShippingCounty: 'cart issue (#4)',
  EmptyCart: 'cart issue (#4)',
  Checkout: 'checkout (#4)',
  getStripePaymentIntent: 'checkout/payments (#4)',
  getOrder: 'orders (#4/#5)',
  getOrders: 'orders (#5)',
  getDownloads: 'downloads (#5)',
  login: 'accounts (#5)',
  loginWithProvider: 'accounts (#5)',
  Logout: 'accounts (#5)',
  registerCustomer: 'accounts (#5)',
  ResetPasswordEmail: 'accounts (#5)',
  ResetPasswordKey: 'accounts (#5)',
  updatePassword: 'accounts (#5)',
  UpdateCustomer: 'accounts (#5)',
  WriteReview: 'reviews (#5)',
  lookupOrder: 'orders (#4): tests/api/checkout.test.ts',
  refreshToken: 'accounts (#5): tests/api/accounts-auth.test.ts',
  getWishlist: 'accounts (#5): tests/api/accounts-wishlist.test.ts',
  addToWishlist: 'accounts (#5): tests/api/accounts-wishlist.test.ts',
  removeFromWishlist: 'accounts (#5): tests/api/accounts-wishlist.test.ts',
  mergeWishlist: 'accounts (#5): tests/api/accounts-wishlist.test.ts',
  verifyEmail: 'tests/api/trust-email-verification.test.ts',
  sendEmailVerification: 'tests/api/trust-email-verification.test.ts',
  linkAccountWithPassword: 'tests/api/trust-email-verification.test.ts',
  sendAccountLinkEmail: 'tests/api/trust-email-verification.test.ts',
  linkAccountFromEmail: 'tests/api/trust-email-verification.test.ts',
  reportEmailChange: 'tests/api/trust-accounts.test.ts',
  UpdateVatId: 'tests/api/vat.test.ts',
  getShopperPrices: 'tests/api/vat-destinations.test.ts',
  getPersonalDataExport: 'tests/api/personal-data.test.ts',
  deleteAccount: 'tests/api/account-deletion.test.ts',
  sendAccountDeletionLink: 'tests/api/account-deletion.test.ts',
  getSavedPaymentMethods: 'tests/api/stripe-saved-cards.test.ts',
  removeSavedPaymentMethod: 'tests/api/stripe-saved-cards.test.ts',
};

const operations = composeOperations(OPERATIONS_DIR);
const byName = new Map(operations.map((o) => [o.name, o]));

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
}, ENGINE_START_TIMEOUT_MS);

describe('storefront operations', () => {
  it('every operation document, cart, checkout and account ones included, validates against the schema', () => {
    // The schema is built by @graphql-tools with graphql's CommonJS build; validate with that same copy.
    const { validate } = createRequire(import.meta.url)('graphql') as typeof import('graphql');
    const schema = buildSchema([]);
    const problems = operations.flatMap((o) => validate(schema, o.document).map((e) => `${o.name}: ${e.message}`));
    expect(problems).toEqual([]);
    expect(operations.length).toBe(Object.keys(CATALOG).length + Object.keys(LATER).length);
  });

  it('every operation file is either a catalog operation tested here or listed for a later issue', () => {
    const unknown = operations.map((o) => o.name).filter((n) => !(n in CATALOG) && !(n in LATER));
    expect(unknown).toEqual([]);
  });

  for (const [name, runs] of Object.entries(CATALOG)) {
    it(`${name} validates and runs without errors`, async () => {
      const op = byName.get(name);
      expect(op, `src/graphql/operations has no ${name}`).toBeDefined();
      const query = print(op!.document);
      for (const variables of runs) {
        const r = await t.gql(query, variables);
        expect(r.status, JSON.stringify(variables)).toBe(200);
        expect(r.body.errors, `${name} ${JSON.stringify(variables)}`).toBeUndefined();
        expect(r.body.data).toBeTruthy();
      }
    });
  }

  it('the catalog operations return what the pages need', async () => {
    const list = await t.gql(print(byName.get('getProducts')!.document), {});
    expect(list.body.data.products.nodes).toHaveLength(8); // VISIBLE + publish
    const hoodie = await t.gql(print(byName.get('getProduct')!.document), { slug: 'mesh-hoodie' });
    expect(hoodie.body.data.product.variations.nodes).toHaveLength(4);
    const missing = await t.gql(print(byName.get('getProduct')!.document), { slug: 'no-such-product' });
    expect(missing.body.data.product).toBeNull();
  });

  it('stay well inside the query cost limit', async () => {
    // A Yoga with maxCost 1 reports each document's cost in its error ("… found N.").
    const probe = createMeshfrontYoga(async () => t.engine, {
      ...t.config,
      limits: { ...t.config.limits, maxCost: 1 },
    });
    const costs: Record<string, number> = {};
    for (const name of Object.keys(CATALOG)) {
      const r = await probe.fetch('http://x/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: print(byName.get(name)!.document), variables: CATALOG[name]![0] }),
      });
      const body = await r.json();
      const found = /found ([\d.]+)/.exec(body.errors?.[0]?.message ?? '');
      costs[name] = found ? Math.round(parseFloat(found[1]!)) : 0;
    }
    console.log('storefront operation costs (limit %d):', t.config.limits.maxCost, costs);
    for (const [name, cost] of Object.entries(costs)) expect(cost, name).toBeLessThan(t.config.limits.maxCost / 5);
  });

  it('are accepted when only trusted documents may run', async () => {
    const trusted = createMeshfrontYoga(async () => t.engine, {
      ...t.config,
      trustedDocumentsOnly: true,
      operationsDir: OPERATIONS_DIR,
    });
    for (const name of Object.keys(CATALOG)) {
      const r = await trusted.fetch('http://x/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: print(byName.get(name)!.document), variables: CATALOG[name]![0] }),
      });
      const body = await r.json();
      expect(body.errors, name).toBeUndefined();
    }
  });
});
