/**
 * The storefront's GraphQL types, all taken from the generated ones (src/graphql/generated/, made by
 * `npm run codegen` from the engine's schema and the documents): the variables and result of an
 * operation by its name, and the handy shapes islands, stores and pages pass around — each one a part
 * of an operation's result, picked with TypeScript's utility types. A document that selects a field
 * differently changes these types with it.
 *
 * Conventions of the engine's WooGraphQL dialect that the types cannot say:
 * - Money is a string. Formatted fields ("€349.00", "€10.00 - €20.00") are for display; `raw*` aliases
 *   are decimal strings ("349", "12.5") for arithmetic. A variable product's raw price is a comma-separated,
 *   numerically sorted list of every variation's price ("10, 10, 15, 20"). A zero or missing price is null.
 * - "Empty" numbers are null (stockQuantity 0 → null, no low-stock amount → null).
 * - `id` is a Relay global id (base64 "post:12"); `databaseId` is the number the mutations take.
 * - Product dates are "YYYY-MM-DDTHH:MM:SS" (site time); order and download dates are ISO 8601 with offset.
 */
import type {
  CartFragment,
  GetAllTermsQuery,
  GetProductCategoriesQuery,
  GetProductQuery,
  GetProductsQuery,
  GetStatesQuery,
  GetStockStatusQuery,
  LoginPayloadFragment,
  Operations,
} from './generated/operations';
import type { OperationName } from './registry';

/** The variables of an operation (`request(name, variables)`). */
export type OperationVariables<N extends OperationName> = Operations[N]['variables'];
/** The `data` of an operation's answer. */
export type OperationResult<N extends OperationName> = Operations[N]['result'];

/** An array's element type. */
type Item<T> = T extends readonly (infer E)[] ? E : never;

/**
 * The members of a union merged into one object type: every field any member has, each optional
 * (a document that selects fields per type, `... on SimpleProduct { … }`, gives a union per type). A
 * member without fields (`Record<PropertyKey, never>`: a type of a union-typed field the document
 * selects nothing of) adds none.
 */
type Flat<T> = {
  [K in T extends unknown ? (string extends keyof T ? never : keyof T) : never]?: T extends unknown
    ? K extends keyof T
      ? T[K]
      : never
    : never;
};

/**
 * `T` merged (Flat) and with every field optional, at every depth: the shape of a reader that checks
 * each field for null, which takes a result of any document selecting fewer fields, or a trimmed copy.
 */
export type Loose<T> = LooseValue<Exclude<T, null | undefined>> | Extract<T, null | undefined>;
// [T] keeps a union of object types together, so Flat merges it instead of each member staying apart;
// T[number] takes the elements of every member of a union of array types (`infer` would pick one).
type LooseValue<T> = [T] extends [never]
  ? never
  : [T] extends [readonly unknown[]]
    ? Loose<T[number]>[]
    : [T] extends [object]
      ? { [K in keyof Flat<T>]?: Loose<Flat<T>[K]> }
      : T;

/**
 * Whether a node of a union-typed field (a product's `related` products) is one of the types the
 * document selected fields of: a node of another type arrives as an empty object.
 */
export function hasFields<T extends object>(node: T): node is Exclude<T, Record<PropertyKey, never>> {
  return Object.keys(node).length > 0;
}

// ---------------------------------------------------------------- catalog

/** One product of getProducts (fragments/ProductListItem.graphql). */
export type ProductListItem = Item<NonNullable<GetProductsQuery['products']>['nodes']>;
/** getProduct's `product`: everything the product page shows. */
export type ProductDetail = NonNullable<GetProductQuery['product']>;
export type ProductCategory = Item<NonNullable<GetProductCategoriesQuery['productCategories']>['nodes']>;
export type Term = Item<NonNullable<GetAllTermsQuery['terms']>['nodes']>;
export type CountryState = NonNullable<Item<GetStatesQuery['countryStates']>>;
/** getStockStatus's `product`: live availability and price. Stock fields are absent on external products. */
export type LiveStock = NonNullable<GetStockStatusQuery['product']>;

// ---------------------------------------------------------------- cart

/** A cart line (fragments/CartItem.graphql). */
export type CartItem = Item<NonNullable<CartFragment['contents']>['nodes']>;
/** One shipping rate of a package: `id` ("flat_rate:1") is what ChangeShippingMethod and Checkout take. */
export type ShippingRate = NonNullable<
  Item<NonNullable<NonNullable<Item<CartFragment['availableShippingMethods']>>['rates']>>
>;

// ---------------------------------------------------------------- login

/** A provider login waiting to be linked to the existing account with its e-mail address. */
export type PendingAccountLink = NonNullable<LoginPayloadFragment['accountLink']>;
