import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Kind, parse, visit, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  fragmentClosure,
  fragments,
  loadDocument,
  OPERATION_NAMES,
  operations,
  type FragmentName,
  type OperationName,
} from '../../src/graphql/registry';

// The spec's operation list (every operation the storefront sends).
const SPEC_OPERATIONS = [
  'getProducts',
  'getProduct',
  'getProductCategories',
  'getAllTerms',
  'getAllowedCountries',
  'getStates',
  'getStockStatus',
  'getCart',
  'getOrder',
  'getOrders',
  'getDownloads',
  'getStripePaymentIntent',
  'addToCart',
  'applyCoupon',
  'removeCoupons',
  'UpDateCartQuantity',
  'ChangeShippingMethod',
  'ChangeShippingCounty',
  'EmptyCart',
  'Checkout',
  'login',
  'loginWithProvider',
  'Logout',
  'registerCustomer',
  'ResetPasswordEmail',
  'ResetPasswordKey',
  'updatePassword',
  'UpdateCustomer',
  'WriteReview',
  // Meshfront's "this wasn't me" link of the notice an e-mail change sends to the previous address.
  'reportEmailChange',
  // Meshfront's own, beyond the spec: the guest order lookup on /order-summary.
  'lookupOrder',
  // Meshfront's account additions: Headless Login's token refresh and the server-kept wishlist.
  'refreshToken',
  'getWishlist',
  'addToWishlist',
  'removeFromWishlist',
  'mergeWishlist',
  // E-mail verification and linking a provider login to an existing account.
  'verifyEmail',
  'sendEmailVerification',
  'linkAccountWithPassword',
  'sendAccountLinkEmail',
  'linkAccountFromEmail',
  // A business customer's VAT ID at checkout, checked by the engine (format, then VIES).
  'UpdateVatId',
  // The prices a shopper outside the shop's base country pays, for the products of a prebuilt page.
  'getShopperPrices',
  // The account's "Download my data".
  'getPersonalDataExport',
  // The account's "Delete my account" (password, or the e-mailed link without one).
  'deleteAccount',
  'sendAccountDeletionLink',
  // The logged-in customer's cards saved with Stripe (checkout's choice, the account's Saved cards).
  'getSavedPaymentMethods',
  'removeSavedPaymentMethod',
];

const dir = (name: string) => fileURLToPath(new URL(`../../src/graphql/${name}/`, import.meta.url));
const graphqlFiles = (name: string) =>
  readdirSync(dir(name))
    .filter((file) => file.endsWith('.graphql'))
    .map((file) => file.slice(0, -'.graphql'.length))
    .sort();
const read = (folder: string, name: string) => readFileSync(`${dir(folder)}${name}.graphql`, 'utf8');

/** Names of the fragments a document spreads directly (not through other fragments in the same text). */
function spreads(document: DocumentNode): string[] {
  const names = new Set<string>();
  visit(document, {
    [Kind.FRAGMENT_SPREAD]: (node) => {
      names.add(node.name.value);
    },
  });
  return [...names].sort();
}

describe('operation files', () => {
  it('are exactly the spec operations, one file each, all registered', () => {
    expect(graphqlFiles('operations')).toEqual([...SPEC_OPERATIONS].sort());
    expect([...OPERATION_NAMES].sort()).toEqual([...SPEC_OPERATIONS].sort());
  });

  it.each(SPEC_OPERATIONS)('%s parses and holds one operation named like its file', (name) => {
    const document = parse(read('operations', name));
    const definitions = document.definitions;
    expect(definitions).toHaveLength(1);
    const [definition] = definitions;
    expect(definition?.kind).toBe(Kind.OPERATION_DEFINITION);
    if (definition?.kind !== Kind.OPERATION_DEFINITION) return;
    expect(definition.name?.value).toBe(name);
  });

  it.each(SPEC_OPERATIONS)('%s declares exactly the fragments it spreads', (name) => {
    const declared = [...operations[name as OperationName].fragments].sort();
    expect(declared).toEqual(spreads(parse(read('operations', name))));
  });
});

describe('fragment files', () => {
  const files = graphqlFiles('fragments');

  it('are all registered', () => {
    expect(Object.keys(fragments).sort()).toEqual(files);
  });

  it.each(files)('%s parses, holds one fragment named like its file, and declares its spreads', (name) => {
    const document = parse(read('fragments', name));
    expect(document.definitions).toHaveLength(1);
    const [definition] = document.definitions;
    expect(definition?.kind).toBe(Kind.FRAGMENT_DEFINITION);
    if (definition?.kind !== Kind.FRAGMENT_DEFINITION) return;
    expect(definition.name.value).toBe(name);
    expect([...fragments[name as FragmentName].fragments].sort()).toEqual(spreads(document));
  });
});

describe('composed documents (what goes on the wire)', () => {
  it.each(SPEC_OPERATIONS)('%s: every spread is defined exactly once and every fragment is used', async (name) => {
    const text = await loadDocument(name);
    const document = parse(text);
    const defined = document.definitions
      .filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((definition) => (definition.kind === Kind.FRAGMENT_DEFINITION ? definition.name.value : ''));
    expect(new Set(defined).size).toBe(defined.length);
    expect(defined.sort()).toEqual(spreads(document));
    expect([...fragmentClosure(name as OperationName)].sort()).toEqual(defined);
    const operationsInText = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    expect(operationsInText).toHaveLength(1);
  });

  it('caches the composed text', async () => {
    expect(await loadDocument('getCart')).toBe(await loadDocument('getCart'));
  });

  it('refuses an unknown name', async () => {
    await expect(loadDocument('getEverything')).rejects.toThrow('Invalid GraphQL Operation');
    await expect(loadDocument('toString')).rejects.toThrow('Invalid GraphQL Operation');
  });
});
