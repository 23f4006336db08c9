/**
 * Shapes returned by the storefront's operations (src/graphql/operations), written by hand to match the
 * documents field for field. Islands, stores and pages import these; `request(name, …)` in client.ts and
 * `buildRequest(name, …)` in build.ts are typed with `OperationVariables` / `OperationResult` below.
 *
 * Conventions of the WooGraphQL dialect (../shared/reference/woographql-contract.md):
 * - Money is a string. Formatted fields ("€349.00", "€10.00 - €20.00") are for display; `raw*` aliases
 *   are decimal strings ("349", "12.5") for arithmetic. A variable product's raw price is a comma-separated,
 *   numerically sorted list of every variation's price ("10, 10, 15, 20"). A zero or missing price is null.
 * - "Empty" numbers are null (stockQuantity 0 → null, no low-stock amount → null).
 * - `id` is a Relay global id (base64 "post:12"); `databaseId` is the number the mutations take.
 * - Product dates are "YYYY-MM-DDTHH:MM:SS" (site time); order and download dates are ISO 8601 with offset.
 */

// ---------------------------------------------------------------- enums (values on the wire)

export type ProductType = 'SIMPLE' | 'VARIABLE' | 'EXTERNAL' | 'GROUPED' | 'VARIATION';
export type StockStatus = 'IN_STOCK' | 'OUT_OF_STOCK' | 'ON_BACKORDER';
export type OrderStatus =
  | 'PENDING'
  | 'PROCESSING'
  | 'ON_HOLD'
  | 'COMPLETED'
  | 'CANCELLED'
  | 'REFUNDED'
  | 'FAILED'
  | 'CHECKOUT_DRAFT';
export type ProductAttributeScope = 'GLOBAL' | 'LOCAL';
export type LoginProvider =
  | 'FACEBOOK'
  | 'GITHUB'
  | 'GOOGLE'
  | 'INSTAGRAM'
  | 'LINKEDIN'
  | 'OAUTH2_GENERIC'
  | 'PASSWORD'
  | 'SITETOKEN'
  // Providers configured by environment (any OpenID Connect / OAuth 2 provider) may add values.
  | (string & {});
export type ProductsOrderByField =
  | 'DATE'
  | 'MODIFIED'
  | 'NAME'
  | 'SLUG'
  | 'PRICE'
  | 'POPULARITY'
  | 'RATING'
  | 'REVIEW_COUNT'
  | 'MENU_ORDER'
  | 'TOTAL_SALES';
export type OrderDirection = 'ASC' | 'DESC';
export type CatalogVisibility = 'VISIBLE' | 'CATALOG' | 'SEARCH' | 'HIDDEN';
export type OrderIdType = 'ID' | 'DATABASE_ID' | 'ORDER_KEY';
export type StripePaymentMethod = 'PAYMENT' | 'SETUP';
/** ISO 3166-1 alpha-2 country code as WooGraphQL's CountriesEnum spells it ("DE", "US"). */
export type CountryCode = string;
/** TaxonomyEnum value, e.g. "PRODUCTCATEGORY", "PACOLOR", "PASIZE". */
export type TaxonomyEnum = string;

// ---------------------------------------------------------------- shared pieces

export interface Connection<T> {
  nodes: T[];
}

export interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

/** fragments/Image.graphql */
export interface Image {
  id: string;
  databaseId: number;
  sourceUrl: string | null;
  altText: string | null;
  title: string | null;
}

export interface MetaData {
  id: string | null;
  key: string;
  /** Arrays and objects arrive JSON-encoded. */
  value: string | null;
}

/** Formatted and raw price fields shared by every purchasable type. */
export interface Pricing {
  price: string | null;
  regularPrice: string | null;
  salePrice: string | null;
  rawPrice: string | null;
  rawRegularPrice: string | null;
  rawSalePrice: string | null;
  onSale: boolean | null;
}

export interface Stock {
  stockStatus: StockStatus | null;
  stockQuantity: number | null;
  lowStockAmount: number | null;
}

/** fragments/VariationAttribute.graphql — e.g. { name: "pa_color", label: "Colour", value: "red" }. */
export interface VariationAttribute {
  id: string;
  attributeId: number | null;
  name: string | null;
  label: string | null;
  /** Term slug for global attributes, the option text for local ones; "" = "any" on a variation. */
  value: string | null;
}

export interface TermSummary {
  databaseId: number;
  taxonomyName: string | null;
  slug: string | null;
  name: string | null;
}

export interface CategorySummary {
  databaseId: number;
  slug: string | null;
  name: string | null;
}

// ---------------------------------------------------------------- products

interface ProductBase {
  id: string;
  databaseId: number;
  name: string | null;
  slug: string | null;
  averageRating: number | null;
  reviewCount: number | null;
  image: Image | null;
}

/** fragments/ProductCard.graphql: a product card (related products, cart lines). Discriminated by `type`. */
export type ProductCard =
  | (ProductBase & { type: 'SIMPLE' } & Pricing & Stock)
  | (ProductBase & { type: 'VARIABLE' } & Pricing & Stock)
  | (ProductBase & { type: 'EXTERNAL'; externalUrl: string | null; buttonText: string | null } & Pricing)
  /** Grouped products carry no price/stock fields in these documents. */
  | (ProductBase & { type: 'GROUPED' });

interface ListExtras {
  /** "YYYY-MM-DDTHH:MM:SS" site time: the default sort key. */
  date: string | null;
  /** Rendered HTML. */
  shortDescription: string | null;
  /** Rendered HTML. */
  description: string | null;
  productCategories: Connection<CategorySummary> | null;
  /** All terms, including pa_* attribute terms: what the attribute filters match on. */
  terms: Connection<TermSummary> | null;
}

/** fragments/ProductListItem.graphql: one product of getProducts. */
export type ProductListItem = ProductCard & ListExtras;

/** fragments/ProductVariation.graphql */
export interface ProductVariation extends Pricing, Stock {
  id: string;
  databaseId: number;
  name: string | null;
  slug: string | null;
  sku: string | null;
  purchasable: boolean | null;
  backordersAllowed: boolean | null;
  weight: string | null;
  length: string | null;
  width: string | null;
  height: string | null;
  downloadable: boolean | null;
  hasAttributes: boolean | null;
  image: Image | null;
  attributes: Connection<VariationAttribute> | null;
}

/** fragments/ProductAttribute.graphql */
export interface ProductAttribute {
  id: string;
  attributeId: number;
  /** "pa_color" for a global attribute, the display name for a local one. */
  name: string | null;
  label: string | null;
  /** Term slugs (global) or option texts (local). */
  options: string[] | null;
  position: number | null;
  visible: boolean | null;
  /** Used to make variations. */
  variation: boolean | null;
  scope: ProductAttributeScope;
  /** Global attributes only. */
  slug?: string | null;
  /** Global attributes only. */
  terms?: Connection<TermSummary> | null;
}

/** fragments/Review.graphql plus the edge's rating. */
export interface ReviewEdge {
  rating: number | null;
  node: {
    id: string;
    databaseId: number;
    /** Rendered (escaped) HTML. */
    content: string | null;
    date: string | null;
    author: { node: { name: string | null } | null } | null;
  };
}

interface DetailExtras {
  sku: string | null;
  featured: boolean | null;
  purchasable: boolean | null;
  virtual: boolean | null;
  reviewsAllowed: boolean | null;
  totalSales: number | null;
  galleryImages: Connection<Image> | null;
  metaData: MetaData[] | null;
  related: Connection<ProductCard> | null;
  reviews: { averageRating: number | null; edges: ReviewEdge[] } | null;
}

interface Physical {
  manageStock: 'TRUE' | 'FALSE' | 'PARENT' | null;
  backordersAllowed: boolean | null;
  soldIndividually: boolean | null;
  /** kg, as entered. */
  weight: string | null;
  /** cm, as entered. */
  length: string | null;
  width: string | null;
  height: string | null;
  attributes: Connection<ProductAttribute> | null;
}

export type SimpleProductDetail = Extract<ProductListItem, { type: 'SIMPLE' }> &
  DetailExtras &
  Physical & { downloadable: boolean | null };
export type VariableProductDetail = Extract<ProductListItem, { type: 'VARIABLE' }> &
  DetailExtras &
  Physical & {
    defaultAttributes: Connection<VariationAttribute> | null;
    variations: Connection<ProductVariation> | null;
  };
export type ExternalProductDetail = Extract<ProductListItem, { type: 'EXTERNAL' }> &
  DetailExtras & { attributes: Connection<ProductAttribute> | null };
export type GroupedProductDetail = Extract<ProductListItem, { type: 'GROUPED' }> & DetailExtras;

/** getProduct's `product`: everything the product page shows. */
export type ProductDetail = SimpleProductDetail | VariableProductDetail | ExternalProductDetail | GroupedProductDetail;

export interface ProductCategory {
  id: string;
  databaseId: number;
  name: string | null;
  slug: string | null;
  description: string | null;
  count: number | null;
  menuOrder: number | null;
  image: Image | null;
  parent: { node: { databaseId: number; slug: string | null } } | null;
}

export interface Term {
  databaseId: number;
  taxonomyName: string | null;
  name: string | null;
  slug: string | null;
  count: number | null;
}

export interface CountryState {
  code: string;
  name: string;
}

interface LivePrice extends Pricing {
  stockStatus?: StockStatus | null;
  stockQuantity?: number | null;
  lowStockAmount?: number | null;
  backordersAllowed?: boolean | null;
}

/** getStockStatus's `product`: live availability and price. Stock fields are absent on external products. */
export interface LiveStock extends LivePrice {
  id: string;
  databaseId: number;
  /** Variable products only. */
  variations?: Connection<Pricing & Stock & { databaseId: number; backordersAllowed: boolean | null }> | null;
}

// ---------------------------------------------------------------- cart

export interface CartItem {
  /** Cart line key: what UpDateCartQuantity takes. */
  key: string;
  quantity: number | null;
  /** Before discounts, excl. tax. */
  subtotal: string | null;
  /** After discounts, incl. line tax. */
  total: string | null;
  tax: string | null;
  product: { node: ProductCard & { sku: string | null } } | null;
  variation: {
    node: {
      id: string;
      databaseId: number;
      name: string | null;
      slug: string | null;
      sku: string | null;
      price: string | null;
      regularPrice: string | null;
      salePrice: string | null;
      rawPrice: string | null;
      rawRegularPrice: string | null;
      rawSalePrice: string | null;
      stockStatus: StockStatus | null;
      stockQuantity: number | null;
      image: Image | null;
    };
    attributes: VariationAttribute[] | null;
  } | null;
}

export interface ShippingRate {
  /** "flat_rate:1": the value ChangeShippingMethod and Checkout take. */
  id: string;
  methodId: string;
  instanceId: number | null;
  label: string | null;
  /** Formatted; includes shipping tax when prices are shown incl. tax. */
  cost: string | null;
}

export interface ShippingPackage {
  /** "Name ×2, Other ×1" */
  packageDetails: string | null;
  rates: ShippingRate[] | null;
}

export interface AppliedCoupon {
  /** Lower-cased code as stored. */
  code: string;
  description: string | null;
  discountAmount: string;
  discountTax: string;
}

/** fragments/Cart.graphql: the session cart. Every cart mutation returns it; it replaces the cart store. */
export interface Cart {
  isEmpty: boolean | null;
  needsShippingAddress: boolean | null;
  total: string | null;
  rawTotal: string | null;
  subtotal: string | null;
  rawSubtotal: string | null;
  totalTax: string | null;
  rawTotalTax: string | null;
  discountTotal: string | null;
  rawDiscountTotal: string | null;
  shippingTotal: string | null;
  rawShippingTotal: string | null;
  /** Chosen rate id per package. */
  chosenShippingMethods: string[] | null;
  availableShippingMethods: ShippingPackage[] | null;
  /** null (not []) when no coupon is applied. */
  appliedCoupons: AppliedCoupon[] | null;
  contents: {
    /** Sum of quantities. */
    itemCount: number | null;
    /** Number of distinct lines. */
    productCount: number | null;
    nodes: CartItem[];
  } | null;
}

// ---------------------------------------------------------------- customer, viewer, login

export interface Address {
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  postcode: string | null;
  country: CountryCode | null;
  email: string | null;
  phone: string | null;
}

/** fragments/Customer.graphql: the logged-in customer, or the guest session (id "guest"). */
export interface Customer {
  id: string;
  databaseId: number | null;
  username: string | null;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  displayName: string | null;
  /** A freshly signed woocommerce-session token for this session. */
  sessionToken: string | null;
  isPayingCustomer: boolean | null;
  billing: Address | null;
  shipping: Address | null;
}

/** fragments/Viewer.graphql: the logged-in user (getCart's `viewer` is null for guests). */
export interface Viewer {
  id: string;
  databaseId: number;
  username: string | null;
  email: string | null;
  /** Whether the account's address is confirmed (Meshfront addition). */
  emailVerified: boolean | null;
  firstName: string | null;
  lastName: string | null;
  nicename: string | null;
  wooSessionToken: string | null;
  avatar: { url: string | null } | null;
}

export interface PaymentGateway {
  /** Raw gateway id: "stripe", "cod", "kda", … */
  id: string;
  title: string | null;
  description: string | null;
  icon: string | null;
}

export interface LoginClient {
  name: string | null;
  provider: LoginProvider | null;
  isEnabled: boolean | null;
  /** Where the provider button sends the browser (carries the engine-issued state). */
  authorizationUrl: string | null;
  order: number | null;
}

/** fragments/LoginPayload.graphql */
export interface LoginResult {
  /** Short-lived JWT: send as `Authorization: Bearer …`. */
  authToken: string | null;
  /** Unix seconds, as a string. */
  authTokenExpiration: string | null;
  refreshToken: string | null;
  refreshTokenExpiration: string | null;
  /** The user's woocommerce-session token: replace the guest token with it. */
  sessionToken: string | null;
  user: Viewer | null;
  customer: Customer | null;
  /** Instead of the tokens: a provider login that must be linked to an existing account first. */
  accountLink: PendingAccountLink | null;
}

/** A provider login waiting to be linked to the existing account with its e-mail address (Meshfront addition). */
export interface PendingAccountLink {
  /** Single use, short-lived, valid with this browser's session only. */
  token: string;
  provider: LoginProvider | null;
  providerName: string | null;
  email: string | null;
  /** Unix seconds, as a string. */
  expiresAt: string | null;
}

// ---------------------------------------------------------------- orders and downloads

export interface DownloadableItem {
  id: string;
  downloadId: string;
  name: string | null;
  /** Signed, short-lived download link. */
  url: string | null;
  /** ISO 8601, or null when access never expires. */
  accessExpires: string | null;
  /** null = unlimited; 0 = exhausted. */
  downloadsRemaining: number | null;
  product: { databaseId: number; name: string | null; slug: string | null } | null;
}

export interface LineItem {
  id: string;
  databaseId: number | null;
  productId: number | null;
  variationId: number | null;
  quantity: number | null;
  subtotal: string | null;
  /** After discounts, excl. tax. */
  total: string | null;
  totalTax: string | null;
  product: {
    node: { id: string; databaseId: number; name: string | null; slug: string | null; image: Image | null };
  } | null;
  variation: {
    node: {
      id: string;
      databaseId: number;
      name: string | null;
      image: Image | null;
      attributes: Connection<VariationAttribute> | null;
    };
  } | null;
}

/** fragments/Order.graphql */
export interface Order {
  id: string;
  databaseId: number | null;
  orderNumber: string | null;
  /** Random secret; the order-received link carries it (getOrder with idType ORDER_KEY). */
  orderKey: string | null;
  status: OrderStatus | null;
  /** ISO 8601 with offset. */
  date: string | null;
  datePaid: string | null;
  dateCompleted: string | null;
  currency: string | null;
  paymentMethod: string | null;
  paymentMethodTitle: string | null;
  transactionId: string | null;
  customerNote: string | null;
  needsPayment: boolean | null;
  needsProcessing: boolean | null;
  isDownloadPermitted: boolean | null;
  hasDownloadableItem: boolean | null;
  subtotal: string | null;
  total: string | null;
  rawTotal: string | null;
  totalTax: string | null;
  discountTotal: string | null;
  shippingTotal: string | null;
  /** 'KDA' for crypto orders, null otherwise. */
  paymentCurrency?: string | null;
  /** Exact decimal KDA amount due. */
  cryptoAmount?: string | null;
  /** EUR per KDA used for this order. */
  cryptoRate?: string | null;
  /** The order's own k: account. */
  paymentAddress?: string | null;
  receivedUnconfirmed?: string | null;
  /** Paid once this reaches cryptoAmount. */
  receivedConfirmed?: string | null;
  /** Seconds left in the payment window; 0 when it is over. */
  timeoutValue?: number | null;
  /** ISO 8601 end of the payment window. */
  paymentExpiresAt?: string | null;
  billing: Address | null;
  shipping: Address | null;
  lineItems: Connection<LineItem> | null;
  downloadableItems: Connection<DownloadableItem> | null;
}

/** fragments/OrderSummary.graphql: one row of the order history. */
export interface OrderSummary {
  id: string;
  databaseId: number | null;
  orderNumber: string | null;
  orderKey: string | null;
  status: OrderStatus | null;
  date: string | null;
  total: string | null;
  needsPayment: boolean | null;
  lineItems: Connection<{
    quantity: number | null;
    product: { node: { databaseId: number; name: string | null } } | null;
  }> | null;
}

export interface PaymentIntent {
  id: string | null;
  /** Smallest currency unit (cents). */
  amount: number | null;
  /** Upper-case ISO 4217. */
  currency: string | null;
  clientSecret: string | null;
  /** Failure text; the intent fields are null then. */
  error: string | null;
  stripePaymentMethod: string | null;
}

// ---------------------------------------------------------------- inputs

export interface ProductsWhere {
  search?: string;
  slugIn?: string[];
  sku?: string;
  status?: string;
  featured?: boolean;
  onSale?: boolean;
  /** Category slug. */
  category?: string;
  categoryIn?: string[];
  categoryNotIn?: string[];
  categoryId?: number;
  categoryIdIn?: number[];
  type?: ProductType;
  typeIn?: ProductType[];
  stockStatus?: StockStatus[];
  minPrice?: number;
  maxPrice?: number;
  rating?: number[];
  visibility?: CatalogVisibility;
  include?: number[];
  exclude?: number[];
  attributes?: {
    queries: { taxonomy: string; terms?: string[]; ids?: number[]; operator?: 'IN' | 'NOT_IN' | 'AND' }[];
    relation?: 'AND' | 'OR';
  };
  /** Only the first entry is used by the engine. */
  orderby?: { field: ProductsOrderByField; order?: OrderDirection }[];
}

export interface AddressInput extends Partial<Address> {
  /** Clear the stored address before writing this one. */
  overwrite?: boolean;
}

export interface MetaDataInput {
  id?: string;
  key: string;
  value: string;
}

export interface UpdateCustomerInput {
  id?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  displayName?: string;
  billing?: AddressInput;
  shipping?: AddressInput;
  shippingSameAsBilling?: boolean;
  metaData?: MetaDataInput[];
  /** Meshfront: required when the account's e-mail address changes. */
  currentPassword?: string;
}

// ---------------------------------------------------------------- operation map

/** Variables and result of every operation, keyed by operation name. */
export interface Operations {
  getProducts: {
    variables: { first?: number; after?: string | null; where?: ProductsWhere };
    result: {
      products: { found: number | null; pageInfo: PageInfo; nodes: ProductListItem[] } | null;
    };
  };
  getProduct: { variables: { slug: string }; result: { product: ProductDetail | null } };
  getProductCategories: {
    variables: { first?: number; hideEmpty?: boolean };
    result: { productCategories: Connection<ProductCategory> | null };
  };
  getAllTerms: {
    variables: { taxonomies: TaxonomyEnum[]; hideEmpty?: boolean; first?: number };
    result: { terms: Connection<Term> | null };
  };
  getAllowedCountries: { variables: Record<string, never>; result: { allowedCountries: CountryCode[] | null } };
  getStates: { variables: { country: CountryCode }; result: { countryStates: CountryState[] | null } };
  getStockStatus: { variables: { slug: string }; result: { product: LiveStock | null } };
  getCart: {
    variables: Record<string, never>;
    result: {
      cart: Cart | null;
      customer: Customer | null;
      viewer: Viewer | null;
      paymentGateways: Connection<PaymentGateway> | null;
      loginClients: (LoginClient | null)[] | null;
    };
  };
  getOrder: { variables: { id: string | number; idType?: OrderIdType }; result: { order: Order | null } };
  getOrders: {
    variables: { first?: number };
    result: { customer: { orders: Connection<OrderSummary> | null } | null };
  };
  getDownloads: {
    variables: { first?: number };
    result: { customer: { downloadableItems: Connection<DownloadableItem> | null } | null };
  };
  getStripePaymentIntent: {
    variables: { stripePaymentMethod?: StripePaymentMethod; customerId?: string; saveForFuture?: boolean };
    result: { stripePaymentIntent: PaymentIntent | null };
  };
  addToCart: {
    variables: {
      productId: number;
      quantity?: number;
      variationId?: number;
      variation?: { attributeName: string; attributeValue?: string }[];
      /** JSON object text: custom cart-item data. */
      extraData?: string;
    };
    result: { addToCart: { cartItem: { key: string; quantity: number | null } | null; cart: Cart | null } | null };
  };
  applyCoupon: {
    variables: { code: string };
    result: {
      applyCoupon: {
        applied: Pick<AppliedCoupon, 'code' | 'description' | 'discountAmount' | 'discountTax'> | null;
        cart: Cart | null;
      } | null;
    };
  };
  removeCoupons: { variables: { codes: string[] }; result: { removeCoupons: { cart: Cart | null } | null } };
  UpDateCartQuantity: {
    variables: { key: string; quantity: number };
    result: { updateItemQuantities: { cart: Cart | null } | null };
  };
  ChangeShippingMethod: {
    variables: { shippingMethods: string[] };
    result: { updateShippingMethod: { cart: Cart | null } | null };
  };
  ChangeShippingCounty: {
    variables: {
      shippingCountry: CountryCode;
      shippingState?: string;
      billingCountry: CountryCode;
      billingState?: string;
    };
    result: {
      updateCustomer: {
        customer: {
          hasCalculatedShipping: boolean | null;
          calculatedShipping: boolean | null;
          billing: Address | null;
          shipping: Address | null;
        } | null;
      } | null;
    };
  };
  EmptyCart: { variables: Record<string, never>; result: { emptyCart: { cart: Cart | null } | null } };
  Checkout: {
    variables: {
      /** Gateway id: "stripe", "cod", "kda", … */
      paymentMethod: string;
      billing: AddressInput;
      shipping?: AddressInput;
      shipToDifferentAddress?: boolean;
      shippingMethod?: string[];
      customerNote?: string;
      metaData?: MetaDataInput[];
      /** Creates an account for a guest. */
      account?: { username: string; password: string };
      transactionId?: string;
      /** Accepted but never trusted: the engine verifies payments itself. */
      isPaid?: boolean;
      createdVia?: string;
    };
    result: {
      checkout: {
        /** "success" or "failed". */
        result: string | null;
        redirect: string | null;
        order: Order | null;
      } | null;
    };
  };
  /** Meshfront's order lookup (not in WooGraphQL): null ids for any mismatch. */
  lookupOrder: {
    variables: { orderNumber: string; email: string };
    result: { lookupOrder: { orderId: number | null; orderKey: string | null } | null };
  };
  login: { variables: { username: string; password: string }; result: { login: LoginResult | null } };
  loginWithProvider: {
    variables: { provider: LoginProvider; code: string; state?: string };
    result: { login: LoginResult | null };
  };
  Logout: { variables: { refreshToken?: string | null }; result: { logout: { success: boolean | null } | null } };
  registerCustomer: {
    variables: { email: string; password: string; username?: string; firstName?: string; lastName?: string };
    result: {
      registerCustomer: {
        authToken: string | null;
        refreshToken: string | null;
        customer: Customer | null;
        viewer: Viewer | null;
      } | null;
    };
  };
  ResetPasswordEmail: {
    variables: { username: string };
    result: { sendPasswordResetEmail: { success: boolean | null } | null };
  };
  ResetPasswordKey: {
    variables: { key: string; login: string; password: string };
    result: { resetUserPassword: { user: { id: string; databaseId: number } | null } | null };
  };
  updatePassword: {
    variables: { id: string; currentPassword: string; password: string };
    result: { updateUser: { user: { id: string; databaseId: number } | null } | null };
  };
  UpdateCustomer: {
    variables: { input: UpdateCustomerInput };
    result: { updateCustomer: { customer: Customer | null } | null };
  };
  reportEmailChange: {
    variables: { token: string };
    result: { reportEmailChange: { success: boolean | null; email: string | null } | null };
  };
  WriteReview: {
    variables: { commentOn: number; rating: number; content: string; author: string; authorEmail: string };
    result: {
      writeReview: { rating: number | null; review: (ReviewEdge['node'] & { approved: boolean | null }) | null } | null;
    };
  };
  /** Headless Login's refresh; Meshfront also rotates the refresh token (the new one comes back). */
  refreshToken: {
    variables: { refreshToken: string };
    result: {
      refreshToken: {
        authToken: string | null;
        authTokenExpiration: string | null;
        refreshToken: string | null;
        refreshTokenExpiration: string | null;
        success: boolean | null;
      } | null;
    };
  };
  /** The logged-in customer's server-kept wishlist (Meshfront addition). */
  getWishlist: {
    variables: { first?: number };
    result: { customer: { wishlist: Connection<ProductCard> | null } | null };
  };
  addToWishlist: { variables: { productId: number }; result: { addToWishlist: { productIds: number[] } | null } };
  removeFromWishlist: {
    variables: { productId: number };
    result: { removeFromWishlist: { productIds: number[] } | null };
  };
  mergeWishlist: { variables: { productIds: number[] }; result: { mergeWishlist: { productIds: number[] } | null } };
  /** Meshfront's e-mail verification: confirm with the mailed key (logged in), or mail the link again. */
  verifyEmail: {
    variables: { key: string };
    result: {
      verifyEmail: {
        success: boolean | null;
        user: { id: string; databaseId: number; emailVerified: boolean | null } | null;
      } | null;
    };
  };
  sendEmailVerification: {
    variables: Record<string, never>;
    result: { sendEmailVerification: { success: boolean | null } | null };
  };
  /** Linking a provider login to the existing account with its address: with the password, or by e-mail. */
  linkAccountWithPassword: {
    variables: { token: string; password: string };
    result: { linkAccountWithPassword: LoginResult | null };
  };
  sendAccountLinkEmail: {
    variables: { token: string };
    result: { sendAccountLinkEmail: { success: boolean | null } | null };
  };
  linkAccountFromEmail: { variables: { key: string }; result: { linkAccountFromEmail: LoginResult | null } };
}

export type OperationVariables<N extends keyof Operations> = Operations[N]['variables'];
export type OperationResult<N extends keyof Operations> = Operations[N]['result'];
