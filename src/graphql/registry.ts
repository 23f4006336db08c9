/**
 * The storefront's GraphQL documents, by name. Each document is a Vite `?raw` import behind a lazy loader,
 * so an island downloads only the operations it actually calls (and their fragments). `fragments` lists
 * the fragments a file spreads directly; tests/unit/graphql-operations.test.ts checks these lists against
 * the files, so they cannot drift.
 *
 * The composed text (operation + every fragment it needs, transitively) is what goes on the wire, and what
 * the engine's trusted-documents list must contain: use `loadDocument(name)` to get it.
 */
type Loader = () => Promise<string>;
interface Entry<F extends string> {
  readonly load: Loader;
  readonly fragments: readonly F[];
}

const text = (module: { default: string }): string => module.default;

export const fragments = {
  Image: { load: () => import('./fragments/Image.graphql?raw').then(text), fragments: [] },
  ProductCategories: { load: () => import('./fragments/ProductCategories.graphql?raw').then(text), fragments: [] },
  Terms: { load: () => import('./fragments/Terms.graphql?raw').then(text), fragments: [] },
  SimpleProductFields: { load: () => import('./fragments/SimpleProductFields.graphql?raw').then(text), fragments: [] },
  VariableProductFields: {
    load: () => import('./fragments/VariableProductFields.graphql?raw').then(text),
    fragments: [],
  },
  ExternalProductFields: {
    load: () => import('./fragments/ExternalProductFields.graphql?raw').then(text),
    fragments: [],
  },
  ProductCard: {
    load: () => import('./fragments/ProductCard.graphql?raw').then(text),
    fragments: ['Image', 'SimpleProductFields', 'VariableProductFields', 'ExternalProductFields'],
  },
  ProductListItem: {
    load: () => import('./fragments/ProductListItem.graphql?raw').then(text),
    fragments: ['ProductCard', 'ProductCategories', 'Terms'],
  },
  VariationAttribute: { load: () => import('./fragments/VariationAttribute.graphql?raw').then(text), fragments: [] },
  ProductVariation: {
    load: () => import('./fragments/ProductVariation.graphql?raw').then(text),
    fragments: ['Image', 'VariationAttribute'],
  },
  ProductAttribute: { load: () => import('./fragments/ProductAttribute.graphql?raw').then(text), fragments: [] },
  Review: { load: () => import('./fragments/Review.graphql?raw').then(text), fragments: [] },
  ProductCategory: { load: () => import('./fragments/ProductCategory.graphql?raw').then(text), fragments: ['Image'] },
  Address: { load: () => import('./fragments/Address.graphql?raw').then(text), fragments: [] },
  Customer: { load: () => import('./fragments/Customer.graphql?raw').then(text), fragments: ['Address'] },
  Viewer: { load: () => import('./fragments/Viewer.graphql?raw').then(text), fragments: [] },
  PaymentGateway: { load: () => import('./fragments/PaymentGateway.graphql?raw').then(text), fragments: [] },
  LoginClient: { load: () => import('./fragments/LoginClient.graphql?raw').then(text), fragments: [] },
  CartItem: {
    load: () => import('./fragments/CartItem.graphql?raw').then(text),
    fragments: ['ProductCard', 'Image', 'VariationAttribute'],
  },
  Cart: { load: () => import('./fragments/Cart.graphql?raw').then(text), fragments: ['CartItem'] },
  DownloadableItem: { load: () => import('./fragments/DownloadableItem.graphql?raw').then(text), fragments: [] },
  LineItem: {
    load: () => import('./fragments/LineItem.graphql?raw').then(text),
    fragments: ['Image', 'VariationAttribute'],
  },
  Order: {
    load: () => import('./fragments/Order.graphql?raw').then(text),
    fragments: ['Address', 'LineItem', 'DownloadableItem'],
  },
  OrderSummary: { load: () => import('./fragments/OrderSummary.graphql?raw').then(text), fragments: [] },
  LoginPayload: {
    load: () => import('./fragments/LoginPayload.graphql?raw').then(text),
    fragments: ['Viewer', 'Customer'],
  },
} as const satisfies Record<string, Entry<string>>;

export type FragmentName = keyof typeof fragments;

export const operations = {
  getProducts: {
    load: () => import('./operations/getProducts.graphql?raw').then(text),
    fragments: ['ProductListItem'],
  },
  getProduct: {
    load: () => import('./operations/getProduct.graphql?raw').then(text),
    fragments: [
      'ProductListItem',
      'Image',
      'ProductAttribute',
      'VariationAttribute',
      'ProductVariation',
      'ProductCard',
      'Review',
    ],
  },
  getProductCategories: {
    load: () => import('./operations/getProductCategories.graphql?raw').then(text),
    fragments: ['ProductCategory'],
  },
  getAllTerms: { load: () => import('./operations/getAllTerms.graphql?raw').then(text), fragments: [] },
  getAllowedCountries: { load: () => import('./operations/getAllowedCountries.graphql?raw').then(text), fragments: [] },
  getStates: { load: () => import('./operations/getStates.graphql?raw').then(text), fragments: [] },
  getStockStatus: { load: () => import('./operations/getStockStatus.graphql?raw').then(text), fragments: [] },
  getShopperPrices: { load: () => import('./operations/getShopperPrices.graphql?raw').then(text), fragments: [] },
  getCart: {
    load: () => import('./operations/getCart.graphql?raw').then(text),
    fragments: ['Cart', 'Customer', 'Viewer', 'PaymentGateway', 'LoginClient'],
  },
  getOrder: { load: () => import('./operations/getOrder.graphql?raw').then(text), fragments: ['Order'] },
  getOrders: { load: () => import('./operations/getOrders.graphql?raw').then(text), fragments: ['OrderSummary'] },
  getPersonalDataExport: {
    load: () => import('./operations/getPersonalDataExport.graphql?raw').then(text),
    fragments: [],
  },
  deleteAccount: { load: () => import('./operations/deleteAccount.graphql?raw').then(text), fragments: [] },
  sendAccountDeletionLink: {
    load: () => import('./operations/sendAccountDeletionLink.graphql?raw').then(text),
    fragments: [],
  },
  getDownloads: {
    load: () => import('./operations/getDownloads.graphql?raw').then(text),
    fragments: ['DownloadableItem'],
  },
  getStripePaymentIntent: {
    load: () => import('./operations/getStripePaymentIntent.graphql?raw').then(text),
    fragments: [],
  },
  // The logged-in customer's saved cards (Stripe customers).
  getSavedPaymentMethods: {
    load: () => import('./operations/getSavedPaymentMethods.graphql?raw').then(text),
    fragments: [],
  },
  removeSavedPaymentMethod: {
    load: () => import('./operations/removeSavedPaymentMethod.graphql?raw').then(text),
    fragments: [],
  },
  addToCart: { load: () => import('./operations/addToCart.graphql?raw').then(text), fragments: ['Cart'] },
  applyCoupon: { load: () => import('./operations/applyCoupon.graphql?raw').then(text), fragments: ['Cart'] },
  removeCoupons: { load: () => import('./operations/removeCoupons.graphql?raw').then(text), fragments: ['Cart'] },
  UpDateCartQuantity: {
    load: () => import('./operations/UpDateCartQuantity.graphql?raw').then(text),
    fragments: ['Cart'],
  },
  ChangeShippingMethod: {
    load: () => import('./operations/ChangeShippingMethod.graphql?raw').then(text),
    fragments: ['Cart'],
  },
  ChangeShippingCounty: {
    load: () => import('./operations/ChangeShippingCounty.graphql?raw').then(text),
    fragments: ['Address'],
  },
  UpdateVatId: {
    load: () => import('./operations/UpdateVatId.graphql?raw').then(text),
    fragments: ['Address'],
  },
  EmptyCart: { load: () => import('./operations/EmptyCart.graphql?raw').then(text), fragments: ['Cart'] },
  Checkout: { load: () => import('./operations/Checkout.graphql?raw').then(text), fragments: ['Order'] },
  lookupOrder: { load: () => import('./operations/lookupOrder.graphql?raw').then(text), fragments: [] },
  login: { load: () => import('./operations/login.graphql?raw').then(text), fragments: ['LoginPayload'] },
  loginWithProvider: {
    load: () => import('./operations/loginWithProvider.graphql?raw').then(text),
    fragments: ['LoginPayload'],
  },
  Logout: { load: () => import('./operations/Logout.graphql?raw').then(text), fragments: [] },
  registerCustomer: {
    load: () => import('./operations/registerCustomer.graphql?raw').then(text),
    fragments: ['Customer', 'Viewer'],
  },
  ResetPasswordEmail: { load: () => import('./operations/ResetPasswordEmail.graphql?raw').then(text), fragments: [] },
  ResetPasswordKey: { load: () => import('./operations/ResetPasswordKey.graphql?raw').then(text), fragments: [] },
  updatePassword: { load: () => import('./operations/updatePassword.graphql?raw').then(text), fragments: [] },
  UpdateCustomer: { load: () => import('./operations/UpdateCustomer.graphql?raw').then(text), fragments: ['Customer'] },
  // Meshfront's "this wasn't me" for an e-mail change (the notice to the previous address links to it).
  reportEmailChange: { load: () => import('./operations/reportEmailChange.graphql?raw').then(text), fragments: [] },
  WriteReview: { load: () => import('./operations/WriteReview.graphql?raw').then(text), fragments: ['Review'] },
  // Meshfront's account additions (Headless Login's token refresh; the server-kept wishlist).
  refreshToken: { load: () => import('./operations/refreshToken.graphql?raw').then(text), fragments: [] },
  getWishlist: { load: () => import('./operations/getWishlist.graphql?raw').then(text), fragments: ['ProductCard'] },
  addToWishlist: { load: () => import('./operations/addToWishlist.graphql?raw').then(text), fragments: [] },
  removeFromWishlist: { load: () => import('./operations/removeFromWishlist.graphql?raw').then(text), fragments: [] },
  mergeWishlist: { load: () => import('./operations/mergeWishlist.graphql?raw').then(text), fragments: [] },
  // Meshfront's e-mail verification and the link of a provider login to an existing account.
  verifyEmail: { load: () => import('./operations/verifyEmail.graphql?raw').then(text), fragments: [] },
  sendEmailVerification: {
    load: () => import('./operations/sendEmailVerification.graphql?raw').then(text),
    fragments: [],
  },
  linkAccountWithPassword: {
    load: () => import('./operations/linkAccountWithPassword.graphql?raw').then(text),
    fragments: ['LoginPayload'],
  },
  sendAccountLinkEmail: {
    load: () => import('./operations/sendAccountLinkEmail.graphql?raw').then(text),
    fragments: [],
  },
  linkAccountFromEmail: {
    load: () => import('./operations/linkAccountFromEmail.graphql?raw').then(text),
    fragments: ['LoginPayload'],
  },
} as const satisfies Record<string, Entry<FragmentName>>;

/** Every operation the storefront may send (the spec's list). */
export type OperationName = keyof typeof operations;

export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

export function isOperationName(name: unknown): name is OperationName {
  return typeof name === 'string' && Object.hasOwn(operations, name);
}

/** The fragments an operation needs, transitively, in a stable order (first use first). */
export function fragmentClosure(name: OperationName): FragmentName[] {
  const seen = new Set<FragmentName>();
  const visit = (list: readonly FragmentName[]) => {
    for (const fragment of list) {
      if (seen.has(fragment)) continue;
      seen.add(fragment);
      visit(fragments[fragment].fragments);
    }
  };
  visit(operations[name].fragments);
  return [...seen];
}

const cache = new Map<OperationName, Promise<string>>();

/**
 * The full document of an operation: its own text followed by every fragment it uses. All files are
 * fetched in parallel (the dependency lists are static, so there is no request waterfall) and the result
 * is cached. An unknown name throws 'Invalid GraphQL Operation'.
 */
export function loadDocument(name: string): Promise<string> {
  if (!isOperationName(name)) return Promise.reject(new Error('Invalid GraphQL Operation'));
  let pending = cache.get(name);
  if (!pending) {
    pending = Promise.all([operations[name].load(), ...fragmentClosure(name).map((f) => fragments[f].load())]).then(
      (parts) => `${parts.map((part) => part.trim()).join('\n\n')}\n`,
    );
    // A failed chunk download (flaky network) must not poison the cache for the rest of the visit.
    pending.catch(() => cache.delete(name));
    cache.set(name, pending);
  }
  return pending;
}
