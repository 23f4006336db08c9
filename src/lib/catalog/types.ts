/**
 * The product shape the storefront's catalog logic reads, taken from the generated type of getProduct's
 * product (src/graphql/generated/operations.ts): the document that selects the most fields of a
 * product, so a getProducts list item, a product card or a trimmed copy of one (slim.ts) fits it as
 * well. The fields of every product type (simple, variable, external) are merged into one shape, and
 * every field is optional at every depth but the `databaseId` of a product and of a variation: the
 * catalog logic checks each field for null as it reads it, so it takes whatever a document selected.
 *
 * Price aliases follow the documents: `price`/`regularPrice`/`salePrice` are FORMATTED,
 * `rawPrice`/`rawRegularPrice`/`rawSalePrice` are `price(format: RAW)` etc. A variable product's raw
 * price is a comma-separated list of every variation's price ("10, 10, 15, 20").
 */
import type { Loose, ProductDetail } from '../../graphql/shapes';

type Product = Loose<ProductDetail>;
/** The element type of a connection's `nodes`. */
type NodeOf<T> =
  NonNullable<NonNullable<T> extends { nodes?: infer N } ? N : never> extends readonly (infer E)[] ? E : never;

/** One variation of a variable product (fragments/ProductVariation.graphql). */
export type CatalogVariation = NodeOf<Product['variations']> & { databaseId: number };

export type CatalogProduct = Omit<Product, 'databaseId' | 'variations'> & {
  databaseId: number;
  variations?: { nodes?: CatalogVariation[] } | null;
};

export type CatalogImage = NonNullable<Product['image']>;

/** The price and stock fields a product and a variation share. */
export type PricedFields = Pick<
  CatalogProduct,
  | 'price'
  | 'regularPrice'
  | 'salePrice'
  | 'rawPrice'
  | 'rawRegularPrice'
  | 'rawSalePrice'
  | 'onSale'
  | 'stockStatus'
  | 'stockQuantity'
>;
