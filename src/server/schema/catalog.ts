/**
 * Catalog SDL in the WooGraphQL dialect (see ../shared/reference/woographql-contract.md §2). Global
 * attribute taxonomies (pa_color …) each get a term type (PaColor) and a TaxonomyEnum value (PACOLOR),
 * so the SDL is built from the attribute list the engine starts with.
 */
import { connection } from './base.ts';

/** pa_frequency-band → PaFrequencyBand (WPGraphQL's graphql_single_name, capitalised). */
export function attributeTypeName(taxonomy: string): string {
  return taxonomy
    .split(/[_-]/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/** pa_frequency-band → PAFREQUENCYBAND */
export function taxonomyEnumValue(taxonomy: string): string {
  if (taxonomy === 'product_cat') return 'PRODUCTCATEGORY';
  if (taxonomy === 'product_tag') return 'PRODUCTTAG';
  return taxonomy.replace(/[^a-zA-Z0-9]/g, '').toUpperCase();
}

/** Attribute taxonomies every schema has, so the storefront's documents validate on any catalog. */
export const BUILT_IN_ATTRIBUTE_TAXONOMIES = ['pa_color', 'pa_size', 'pa_frequency-band'];

const PRODUCT_FIELDS = `
  id: ID!
  databaseId: Int!
  productId: Int!
  slug: String
  uri: String
  link: String
  status: String
  date: String
  dateGmt: String
  modified: String
  name: String
  title: String
  type: ProductTypesEnum
  featured: Boolean
  catalogVisibility: CatalogVisibilityEnum
  description(format: PostObjectFieldFormatEnum): String
  shortDescription(format: PostObjectFieldFormatEnum): String
  sku: String
  dateOnSaleFrom: String
  dateOnSaleTo: String
  totalSales: Int
  reviewsAllowed: Boolean
  purchaseNote: String
  menuOrder: Int
  averageRating: Float
  reviewCount: Int
  onSale: Boolean
  purchasable: Boolean
  virtual: Boolean
  downloadable: Boolean
  image: MediaItem
  galleryImages(first: Int, after: String, last: Int, before: String): ProductToMediaItemConnection
  productCategories(first: Int, after: String, last: Int, before: String): ProductToProductCategoryConnection
  productTags(first: Int, after: String, last: Int, before: String): ProductToProductTagConnection
  terms(first: Int, after: String, last: Int, before: String, where: ProductToTermNodeConnectionWhereArgs): ProductToTermNodeConnection
  related(first: Int, after: String, last: Int, before: String, where: ProductToProductUnionConnectionWhereArgs): ProductToProductUnionConnection
  reviews(first: Int, after: String, last: Int, before: String): ProductToCommentConnection
  metaData(key: String, keysIn: [String], multiple: Boolean): [MetaData]
`;
const PRICING_FIELDS = `
  price(format: PricingFieldFormatEnum): String
  regularPrice(format: PricingFieldFormatEnum): String
  salePrice(format: PricingFieldFormatEnum): String
  taxStatus: TaxStatusEnum
  taxClass: TaxClassEnum
`;
const INVENTORY_FIELDS = `
  manageStock: ManageStockEnum
  stockQuantity: Int
  lowStockAmount: Int
  backorders: BackordersEnum
  backordersAllowed: Boolean
  soldIndividually: Boolean
  stockStatus: StockStatusEnum
`;
const DIMENSION_FIELDS = `
  weight: String
  length: String
  width: String
  height: String
  shippingClassId: Int
  shippingRequired: Boolean
  shippingTaxable: Boolean
`;
const DOWNLOAD_FIELDS = `
  downloadLimit: Int
  downloadExpiry: Int
  downloads: [ProductDownload]
`;
const ATTRIBUTE_FIELDS = `
  attributes(first: Int, after: String, last: Int, before: String, where: ProductWithAttributesToProductAttributeConnectionWhereArgs): ProductWithAttributesToProductAttributeConnection
  globalAttributes(first: Int): ProductWithAttributesToGlobalProductAttributeConnection
  localAttributes(first: Int): ProductWithAttributesToLocalProductAttributeConnection
  defaultAttributes(first: Int): ProductWithAttributesToVariationAttributeConnection
`;
const VARIATIONS_FIELD = `
  variations(first: Int, after: String, last: Int, before: String, where: ProductWithVariationsToProductVariationConnectionWhereArgs): ProductWithVariationsToProductVariationConnection
`;
const UNION_FIELDS = `
  id: ID!
  databaseId: Int!
  slug: String
  name: String
  type: ProductTypesEnum
  featured: Boolean
  catalogVisibility: CatalogVisibilityEnum
  sku: String
  description(format: PostObjectFieldFormatEnum): String
  image: MediaItem
  onSale: Boolean
  purchasable: Boolean
  date: String
  modified: String
  status: String
  menuOrder: Int
`;
const VARIATION_FIELDS = `
  productVariationId: Int!
  hasAttributes: Boolean
  shippingClass: String
  attributes(first: Int): ProductVariationToVariationAttributeConnection
  parent: ProductVariationToProductConnectionEdge
  averageRating: Float
  reviewCount: Int
  virtual: Boolean
  downloadable: Boolean
  dateOnSaleFrom: String
  dateOnSaleTo: String
`;
// Every concrete product type has every field of the Product interface; the interface also carries
// pricing, stock and dimensions so documents that ask `product { price stockStatus }` directly validate.
const productType = (name: string, interfaces: string, own: string) => `
type ${name} implements ${interfaces} {
${PRODUCT_FIELDS}${PRICING_FIELDS}${INVENTORY_FIELDS}${DIMENSION_FIELDS}${DOWNLOAD_FIELDS}${ATTRIBUTE_FIELDS}${own}
}`;

export function catalogTypeDefs(attributeTaxonomies: string[]): string {
  const taxonomies = [...new Set([...BUILT_IN_ATTRIBUTE_TAXONOMIES, ...attributeTaxonomies])].sort();
  const termTypes = taxonomies.map(
    (t) => `
"Terms of the global attribute ${t}."
type ${attributeTypeName(t)} implements Node & TermNode {
${TERM_FIELDS}
}`,
  );
  return /* GraphQL */ `
enum ProductTypesEnum { SIMPLE GROUPED EXTERNAL VARIABLE VARIATION }
enum CatalogVisibilityEnum { VISIBLE CATALOG SEARCH HIDDEN }
enum PricingFieldFormatEnum { FORMATTED RAW }
enum PostObjectFieldFormatEnum { RENDERED RAW }
enum ProductIdTypeEnum { ID DATABASE_ID SLUG SKU }
enum ProductVariationIdTypeEnum { ID DATABASE_ID SLUG SKU }
enum StockStatusEnum { IN_STOCK OUT_OF_STOCK ON_BACKORDER }
enum BackordersEnum { NO NOTIFY YES }
enum ManageStockEnum { TRUE FALSE PARENT }
enum TaxStatusEnum { TAXABLE SHIPPING NONE }
enum TaxClassEnum { STANDARD REDUCED_RATE ZERO_RATE INHERIT_CART }
enum ProductAttributeTypesEnum { GLOBAL LOCAL }
enum ProductsOrderByEnum { DATE MODIFIED NAME SLUG PARENT IN NAME_IN MENU_ORDER PRICE POPULARITY RATING REVIEW_COUNT REGULAR_PRICE SALE_PRICE ON_SALE_FROM ON_SALE_TO TOTAL_SALES }
enum AttributeOperatorEnum { IN NOT_IN AND OR }
enum TermObjectsConnectionOrderbyEnum { NAME SLUG TERM_GROUP TERM_ID TERM_ORDER DESCRIPTION COUNT NONE }
enum MediaItemSizeEnum { THUMBNAIL MEDIUM MEDIUM_LARGE LARGE WOOCOMMERCE_THUMBNAIL WOOCOMMERCE_SINGLE WOOCOMMERCE_GALLERY_THUMBNAIL FULL }
enum TaxonomyEnum { PRODUCTCATEGORY PRODUCTTAG ${taxonomies.map(taxonomyEnumValue).join(' ')} }

input ProductsOrderbyInput {
  field: ProductsOrderByEnum!
  order: OrderEnum
}

input ProductAttributeQueryInput {
  queries: [ProductAttributeFilterInput]
  relation: AttributeOperatorEnum
}

input ProductAttributeFilterInput {
  "pa_color (the pa_ prefix may be left out)"
  taxonomy: String!
  terms: [String]
  ids: [Int]
  operator: AttributeOperatorEnum
}

input RootQueryToProductConnectionWhereArgs {
  search: String
  slugIn: [String]
  sku: String
  status: String
  featured: Boolean
  onSale: Boolean
  category: String
  categoryIn: [String]
  categoryNotIn: [String]
  categoryId: Int
  categoryIdIn: [Int]
  categoryIdNotIn: [Int]
  tag: String
  tagIn: [String]
  tagNotIn: [String]
  type: ProductTypesEnum
  typeIn: [ProductTypesEnum]
  typeNotIn: [ProductTypesEnum]
  stockStatus: [StockStatusEnum]
  minPrice: Float
  maxPrice: Float
  rating: [Int]
  visibility: CatalogVisibilityEnum
  include: [Int]
  exclude: [Int]
  attributes: ProductAttributeQueryInput
  orderby: [ProductsOrderbyInput]
}

input ProductToProductUnionConnectionWhereArgs {
  shuffle: Boolean
}

input ProductToTermNodeConnectionWhereArgs {
  taxonomies: [TaxonomyEnum]
}

input ProductWithAttributesToProductAttributeConnectionWhereArgs {
  type: ProductAttributeTypesEnum
}

input ProductWithVariationsToProductVariationConnectionWhereArgs {
  stockStatus: [StockStatusEnum]
  minPrice: Float
  maxPrice: Float
}

input RootQueryToProductCategoryConnectionWhereArgs {
  hideEmpty: Boolean
  orderby: TermObjectsConnectionOrderbyEnum
  order: OrderEnum
  parent: Int
  slug: [String]
  include: [ID]
  exclude: [ID]
  search: String
  nameLike: String
}

input RootQueryToTermNodeConnectionWhereArgs {
  taxonomies: [TaxonomyEnum]
  hideEmpty: Boolean
  orderby: TermObjectsConnectionOrderbyEnum
  order: OrderEnum
  parent: Int
  slug: [String]
  include: [ID]
  exclude: [ID]
  search: String
  nameLike: String
}

enum ProductAttributesConnectionOrderbyEnum { MENU_ORDER NAME NAME_NUM SLUG ID COUNT TERM_ORDER }

input GlobalProductAttributeToTermNodeConnectionWhereArgs {
  orderby: ProductAttributesConnectionOrderbyEnum
  order: OrderEnum
  hideEmpty: Boolean
}

type MediaDetails {
  width: Int
  height: Int
  file: String
}

type MediaItem implements Node {
  id: ID!
  databaseId: Int!
  "Absolute URL of the image under MEDIA_BASE_URL (<base>/media/catalog/<file>); every size is the same file, resized by the image pipeline."
  sourceUrl(size: MediaItemSizeEnum): String
  altText: String
  title: String
  caption: String
  description: String
  mimeType: String
  mediaDetails: MediaDetails
  srcSet(size: MediaItemSizeEnum): String
  sizes(size: MediaItemSizeEnum): String
  uri: String
}

interface TermNode implements Node {
${TERM_FIELDS}
}

type ProductCategory implements Node & TermNode {
${TERM_FIELDS}
  parentId: ID
  parentDatabaseId: Int
  parent: ProductCategoryToParentProductCategoryConnectionEdge
  children(first: Int): ProductCategoryToProductCategoryConnection
  ancestors(first: Int): ProductCategoryToAncestorsProductCategoryConnection
  image: MediaItem
  display: String
  menuOrder: Int
  products(first: Int, after: String, last: Int, before: String, where: RootQueryToProductConnectionWhereArgs): ProductCategoryToProductConnection
}

type ProductCategoryToParentProductCategoryConnectionEdge {
  node: ProductCategory!
}

type ProductTag implements Node & TermNode {
${TERM_FIELDS}
}
${termTypes.join('\n')}

interface ProductUnion implements Node {
${UNION_FIELDS}
}

interface Product implements Node & ProductUnion {
${PRODUCT_FIELDS}${PRICING_FIELDS}${INVENTORY_FIELDS}${DIMENSION_FIELDS}
}

interface ProductWithPricing implements Node {
  id: ID!
  databaseId: Int!
${PRICING_FIELDS}
}

interface InventoriedProduct implements Node {
  id: ID!
  databaseId: Int!
${INVENTORY_FIELDS}
}

interface ProductWithDimensions implements Node {
  id: ID!
  databaseId: Int!
${DIMENSION_FIELDS}
}

interface DownloadableProduct implements Node {
  id: ID!
  databaseId: Int!
  downloadable: Boolean
${DOWNLOAD_FIELDS}
}

interface ProductWithAttributes implements Node {
  id: ID!
  databaseId: Int!
${ATTRIBUTE_FIELDS}
}

interface ProductWithVariations implements Node {
  id: ID!
  databaseId: Int!
${VARIATIONS_FIELD}
}

${productType('SimpleProduct', 'Node & ProductUnion & Product & ProductWithPricing & InventoriedProduct & ProductWithDimensions & DownloadableProduct & ProductWithAttributes', '')}
${productType('VariableProduct', 'Node & ProductUnion & Product & ProductWithPricing & InventoriedProduct & ProductWithDimensions & DownloadableProduct & ProductWithAttributes & ProductWithVariations', VARIATIONS_FIELD)}
${productType(
  'ExternalProduct',
  'Node & ProductUnion & Product & ProductWithPricing & InventoriedProduct & ProductWithDimensions & DownloadableProduct & ProductWithAttributes',
  `
  externalUrl: String
  buttonText: String
`,
)}
"A grouped product (WooCommerce's bundle of other products shown on one page). This shop's catalog sells none yet; the type exists so WooGraphQL clients' documents that ask for it are valid."
${productType(
  'GroupProduct',
  'Node & ProductUnion & Product & ProductWithPricing & InventoriedProduct & ProductWithDimensions & DownloadableProduct & ProductWithAttributes',
  `
  addToCartText: String
  addToCartDescription: String
  "The products in the group."
  products(first: Int, after: String, last: Int, before: String): ProductToProductUnionConnection
`,
)}

interface ProductVariation implements Node & ProductUnion & ProductWithPricing & InventoriedProduct & ProductWithDimensions & DownloadableProduct {
${UNION_FIELDS}${PRICING_FIELDS}${INVENTORY_FIELDS}${DIMENSION_FIELDS}${DOWNLOAD_FIELDS}${VARIATION_FIELDS}
}

type SimpleProductVariation implements Node & ProductUnion & ProductWithPricing & InventoriedProduct & ProductWithDimensions & DownloadableProduct & ProductVariation {
${UNION_FIELDS}${PRICING_FIELDS}${INVENTORY_FIELDS}${DIMENSION_FIELDS}${DOWNLOAD_FIELDS}${VARIATION_FIELDS}
}

type ProductVariationToProductConnectionEdge {
  node: Product!
}

type ProductDownload {
  downloadId: String!
  name: String
  file: String
  fileExt: String
  fileType: String
  allowedFileType: Boolean
  fileExists: Boolean
}

interface Attribute {
  name: String
  value: String
}

type VariationAttribute implements Node & Attribute {
  id: ID!
  attributeId: Int
  name: String
  label: String
  value: String
  "The value as the shop shows it in the request's language: a global attribute's term name (5.8 dBi, where value is the slug 5-8-dbi) or a local attribute's value; empty for any."
  valueName: String
}

interface ProductAttribute implements Node {
  id: ID!
  attributeId: Int!
  name: String
  label: String
  options: [String]
  position: Int
  visible: Boolean
  variation: Boolean
  scope: ProductAttributeTypesEnum!
}

type GlobalProductAttribute implements Node & ProductAttribute {
  id: ID!
  attributeId: Int!
  name: String
  label: String
  options: [String]
  position: Int
  visible: Boolean
  variation: Boolean
  scope: ProductAttributeTypesEnum!
  slug: String
  terms(first: Int, after: String, where: GlobalProductAttributeToTermNodeConnectionWhereArgs): GlobalProductAttributeToTermNodeConnection
}

type LocalProductAttribute implements Node & ProductAttribute {
  id: ID!
  attributeId: Int!
  name: String
  label: String
  options: [String]
  position: Int
  visible: Boolean
  variation: Boolean
  scope: ProductAttributeTypesEnum!
}

interface Commenter {
  name: String
  url: String
  avatar: Avatar
}

type Avatar {
  url: String
  size: Int
  width: Int
  height: Int
}

type CommentAuthor implements Node & Commenter {
  id: ID!
  databaseId: Int!
  name: String
  url: String
  avatar: Avatar
}

type CommentToCommenterConnectionEdge {
  node: Commenter!
}

type Comment implements Node {
  id: ID!
  databaseId: Int!
  commentId: Int
  parentId: ID
  parentDatabaseId: Int
  content(format: PostObjectFieldFormatEnum): String
  date: String
  dateGmt: String
  approved: Boolean
  status: String
  type: String
  author: CommentToCommenterConnectionEdge
  replies(first: Int): CommentToCommentConnection
}

${connection('RootQueryToProductConnection', 'Product', { connection: '"Total number of matches."\n  found: Int' })}
${connection('ProductCategoryToProductConnection', 'Product', { connection: 'found: Int' })}
${connection('ProductToMediaItemConnection', 'MediaItem')}
${connection('ProductToProductCategoryConnection', 'ProductCategory')}
${connection('ProductToProductTagConnection', 'ProductTag')}
${connection('ProductToTermNodeConnection', 'TermNode')}
${connection('ProductToProductUnionConnection', 'ProductUnion')}
${connection('ProductToCommentConnection', 'Comment', { connection: 'averageRating: Float', edge: 'rating: Float' })}
${connection('CommentToCommentConnection', 'Comment')}
${connection('ProductWithAttributesToProductAttributeConnection', 'ProductAttribute')}
${connection('ProductWithAttributesToGlobalProductAttributeConnection', 'GlobalProductAttribute')}
${connection('ProductWithAttributesToLocalProductAttributeConnection', 'LocalProductAttribute')}
${connection('ProductWithAttributesToVariationAttributeConnection', 'VariationAttribute')}
${connection('ProductWithVariationsToProductVariationConnection', 'ProductVariation')}
${connection('ProductVariationToVariationAttributeConnection', 'VariationAttribute')}
${connection('GlobalProductAttributeToTermNodeConnection', 'TermNode')}
${connection('RootQueryToProductCategoryConnection', 'ProductCategory')}
${connection('ProductCategoryToProductCategoryConnection', 'ProductCategory')}
${connection('ProductCategoryToAncestorsProductCategoryConnection', 'ProductCategory')}
${connection('RootQueryToTermNodeConnection', 'TermNode')}

extend type RootQuery {
  product(id: ID!, idType: ProductIdTypeEnum): Product
  products(first: Int, after: String, last: Int, before: String, where: RootQueryToProductConnectionWhereArgs): RootQueryToProductConnection
  productVariation(id: ID!, idType: ProductVariationIdTypeEnum): ProductVariation
  productCategory(id: ID!, idType: ProductCategoryIdType): ProductCategory
  productCategories(first: Int, after: String, last: Int, before: String, where: RootQueryToProductCategoryConnectionWhereArgs): RootQueryToProductCategoryConnection
  terms(first: Int, after: String, last: Int, before: String, where: RootQueryToTermNodeConnectionWhereArgs): RootQueryToTermNodeConnection
}

enum ProductCategoryIdType { ID DATABASE_ID SLUG NAME URI }
`;
}

const TERM_FIELDS = `
  id: ID!
  databaseId: Int!
  termTaxonomyId: Int
  name: String
  slug: String
  description: String
  count: Int
  uri: String
  link: String
  taxonomyName: String
`;
