/**
 * The product shapes the storefront's catalog logic needs, spelled with WooGraphQL's field names so
 * a getProducts/getProduct result can be passed in as is. Price aliases follow WooNuxt's documents:
 * `price`/`regularPrice`/`salePrice` are FORMATTED, `rawPrice`/`rawRegularPrice`/`rawSalePrice` are
 * `price(format: RAW)` etc. A variable product's raw price is a comma-separated list of every
 * variation's price ("10, 10, 15, 20").
 *
 * WooGraphQL returns null for "empty" values (a 0 price, a 0 stock quantity), so most fields are
 * nullable. These types are structural: when src/graphql/types.ts lands its generated product type is
 * assignable to `CatalogProduct` as long as the documents select these fields.
 */
export type ProductType = 'SIMPLE' | 'VARIABLE' | 'EXTERNAL' | 'GROUPED';
export type StockStatus = 'IN_STOCK' | 'OUT_OF_STOCK' | 'ON_BACKORDER';

export interface CatalogImage {
  sourceUrl?: string | null;
  altText?: string | null;
}

export interface CatalogTerm {
  taxonomyName?: string | null;
  slug?: string | null;
  name?: string | null;
}

export interface CatalogCategory {
  slug?: string | null;
  name?: string | null;
}

export interface CatalogProductAttribute {
  /** `pa_color` for a global attribute, the display name for a local one. */
  name?: string | null;
  label?: string | null;
  /** Term slugs for a global attribute, plain values for a local one. */
  options?: (string | null)[] | null;
  variation?: boolean | null;
}

export interface CatalogVariationAttribute {
  name?: string | null;
  label?: string | null;
  /** '' means "any value" (a WooCommerce variation that does not pin this attribute). */
  value?: string | null;
}

export interface PricedFields {
  price?: string | null;
  regularPrice?: string | null;
  salePrice?: string | null;
  rawPrice?: string | null;
  rawRegularPrice?: string | null;
  rawSalePrice?: string | null;
  onSale?: boolean | null;
  stockStatus?: StockStatus | null;
  stockQuantity?: number | null;
}

export interface CatalogVariation extends PricedFields {
  databaseId: number;
  name?: string | null;
  sku?: string | null;
  image?: CatalogImage | null;
  attributes?: { nodes?: CatalogVariationAttribute[] | null } | null;
}

export interface CatalogProduct extends PricedFields {
  databaseId: number;
  name?: string | null;
  slug?: string | null;
  sku?: string | null;
  type?: ProductType | null;
  /** WPGraphQL post date, `YYYY-MM-DDTHH:MM:SS` without offset. */
  date?: string | null;
  averageRating?: number | null;
  reviewCount?: number | null;
  description?: string | null;
  shortDescription?: string | null;
  image?: CatalogImage | null;
  galleryImages?: { nodes?: CatalogImage[] | null } | null;
  productCategories?: { nodes?: CatalogCategory[] | null } | null;
  terms?: { nodes?: CatalogTerm[] | null } | null;
  variations?: { nodes?: CatalogVariation[] | null } | null;
  attributes?: { nodes?: CatalogProductAttribute[] | null } | null;
  defaultAttributes?: { nodes?: CatalogVariationAttribute[] | null } | null;
  /** ExternalProduct only. */
  externalUrl?: string | null;
  buttonText?: string | null;
}
