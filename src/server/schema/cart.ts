/** SDL of the cart domain (WooGraphQL's Cart type and cart mutations) and the session customer. */
import { connection } from './base.ts';

export const cartTypeDefs = /* GraphQL */ `
type Cart {
  contents(first: Int, after: String, last: Int, before: String, where: CartToCartItemConnectionWhereArgs): CartToCartItemConnection
  "null (not []) when no coupon is applied"
  appliedCoupons: [AppliedCoupon]
  availableShippingMethods: [ShippingPackage]
  chosenShippingMethods: [String]
  subtotal(format: PricingFieldFormatEnum): String
  subtotalTax(format: PricingFieldFormatEnum): String
  discountTotal(format: PricingFieldFormatEnum): String
  discountTax(format: PricingFieldFormatEnum): String
  shippingTotal(format: PricingFieldFormatEnum): String
  shippingTax(format: PricingFieldFormatEnum): String
  contentsTotal(format: PricingFieldFormatEnum): String
  contentsTax(format: PricingFieldFormatEnum): String
  feeTotal(format: PricingFieldFormatEnum): String
  feeTax(format: PricingFieldFormatEnum): String
  total(format: PricingFieldFormatEnum): String
  totalTax(format: PricingFieldFormatEnum): String
  totalTaxes: [CartTax]
  isEmpty: Boolean
  displayPricesIncludeTax: Boolean
  needsShippingAddress: Boolean
}

type CartTax {
  id: ID!
  label: String
  isCompound: Boolean
  amount(format: PricingFieldFormatEnum): String
}

input CartToCartItemConnectionWhereArgs {
  needsShipping: Boolean
}

${connection('CartToCartItemConnection', 'CartItem', {
  connection: `"Sum of the quantities (0 when empty)."
  itemCount: Int
  "Number of distinct cart lines."
  productCount: Int`,
})}

interface CartItem {
  key: ID!
  quantity: Int
  "Line subtotal before discounts, excl. tax."
  subtotal(format: PricingFieldFormatEnum): String
  subtotalTax(format: PricingFieldFormatEnum): String
  "Line total after discounts plus line tax."
  total(format: PricingFieldFormatEnum): String
  tax(format: PricingFieldFormatEnum): String
  extraData(key: String, keysIn: [String]): [MetaData]
  product: CartItemToProductConnectionEdge
  variation: CartItemToProductVariationConnectionEdge
}

type SimpleCartItem implements CartItem {
  key: ID!
  quantity: Int
  subtotal(format: PricingFieldFormatEnum): String
  subtotalTax(format: PricingFieldFormatEnum): String
  total(format: PricingFieldFormatEnum): String
  tax(format: PricingFieldFormatEnum): String
  extraData(key: String, keysIn: [String]): [MetaData]
  product: CartItemToProductConnectionEdge
  variation: CartItemToProductVariationConnectionEdge
}

type SimpleAttribute {
  id: ID!
  name: String
  value: String
}

type CartItemToProductConnectionEdge {
  node: Product!
  simpleVariations: [SimpleAttribute]
}

type CartItemToProductVariationConnectionEdge {
  node: ProductVariation!
  attributes: [VariationAttribute]
}

type AppliedCoupon {
  "Lower-cased code as stored."
  code: String!
  description: String
  discountAmount(excludeTax: Boolean, format: PricingFieldFormatEnum): String!
  discountTax(format: PricingFieldFormatEnum): String!
}

type ShippingPackage {
  "e.g. \\"Alpha Gateway ×2, Omni Antenna ×1\\""
  packageDetails: String
  rates: [ShippingRate]
  supportsShippingCalculator: Boolean
}

type ShippingRate {
  "The rate id (flat_rate:1): what updateShippingMethod and checkout take."
  id: ID!
  methodId: ID!
  instanceId: Int
  label: String
  "The rate's cost; includes its tax when the shop displays cart prices including tax."
  cost(format: PricingFieldFormatEnum): String
  "The rate's cost before tax."
  subtotal(format: PricingFieldFormatEnum): String
  taxTotal(format: PricingFieldFormatEnum): String
}

"The current customer: for guests the session customer (id \\"guest\\")."
type Customer implements Node {
  id: ID!
  databaseId: Int
  username: String
  email: String
  firstName: String
  lastName: String
  displayName: String
  role: String
  "A freshly signed woocommerce-session token for this session."
  sessionToken: String
  isPayingCustomer: Boolean
  billing: CustomerAddress
  shipping: CustomerAddress
  hasCalculatedShipping: Boolean
  calculatedShipping: Boolean
  "The customer pays no VAT: a business with a checked VAT ID of another EU country than the shop's, buying for another EU country (reverse charge)."
  isVatExempt: Boolean
  "Meshfront: whether the catalog's prices (the shop's base country's, which catalog reads carry for every caller) are the ones this customer pays. False for another destination's VAT, none outside the EU, or the reverse charge: every operation besides a catalog read carries this customer's own prices, so a storefront asks for the products again beside the customer (getShopperPrices)."
  catalogPricesApply: Boolean
}

type CustomerAddress {
  firstName: String
  lastName: String
  company: String
  address1: String
  address2: String
  city: String
  state: String
  postcode: String
  country: CountriesEnum
  email: String
  phone: String
  "A business's VAT ID as the shop checked it, with its country prefix (DE136695976); billing addresses only."
  vatId: String
}

input CustomerAddressInput {
  firstName: String
  lastName: String
  company: String
  address1: String
  address2: String
  city: String
  state: String
  postcode: String
  country: CountriesEnum
  email: String
  phone: String
  "A business's VAT ID (billing only; ignored on shipping addresses): checked for the billing country's format, then with the EU's VIES service. An empty string removes it."
  vatId: String
  overwrite: Boolean
}

input MetaDataInput {
  id: ID
  key: String!
  value: String!
}

input ProductAttributeInput {
  attributeName: String!
  attributeValue: String
  id: Int
}

input AddToCartInput {
  clientMutationId: String
  productId: Int!
  quantity: Int = 1
  variationId: Int
  variation: [ProductAttributeInput]
  "JSON object: custom cart item data"
  extraData: String
}
type AddToCartPayload {
  clientMutationId: String
  cartItem: CartItem
  cart: Cart
}

input CartItemQuantityInput {
  key: ID!
  quantity: Int!
}
input UpdateItemQuantitiesInput {
  clientMutationId: String
  items: [CartItemQuantityInput]
}
type UpdateItemQuantitiesPayload {
  clientMutationId: String
  updated: [CartItem]
  removed: [CartItem]
  items: [CartItem]
  cart: Cart
}

input RemoveItemsFromCartInput {
  clientMutationId: String
  keys: [ID]
  all: Boolean
}
type RemoveItemsFromCartPayload {
  clientMutationId: String
  cartItems: [CartItem]
  cart: Cart
}

input EmptyCartInput {
  clientMutationId: String
  clearPersistentCart: Boolean
}
type EmptyCartPayload {
  clientMutationId: String
  cart: Cart
  deletedCart: Cart
}

input ApplyCouponInput {
  clientMutationId: String
  code: String!
}
type ApplyCouponPayload {
  clientMutationId: String
  applied: AppliedCoupon
  cart: Cart
}

input RemoveCouponsInput {
  clientMutationId: String
  codes: [String]
}
type RemoveCouponsPayload {
  clientMutationId: String
  cart: Cart
}

input UpdateShippingMethodInput {
  clientMutationId: String
  shippingMethods: [String]
}
type UpdateShippingMethodPayload {
  clientMutationId: String
  cart: Cart
}

input UpdateCustomerInput {
  clientMutationId: String
  id: ID
  email: String
  firstName: String
  lastName: String
  displayName: String
  billing: CustomerAddressInput
  shipping: CustomerAddressInput
  shippingSameAsBilling: Boolean
  metaData: [MetaDataInput]
  isSession: Boolean
  "Meshfront: the customer's current password, required when a logged-in customer changes the account's e-mail address."
  currentPassword: String
}
type UpdateCustomerPayload {
  clientMutationId: String
  customer: Customer
}

extend type RootQuery {
  "The session cart."
  cart(recalculateTotals: Boolean): Cart
  cartItem(key: ID!): CartItem
  "The current customer (the guest session when nobody is logged in)."
  customer(id: ID, customerId: Int): Customer
}

extend type RootMutation {
  addToCart(input: AddToCartInput!): AddToCartPayload
  updateItemQuantities(input: UpdateItemQuantitiesInput!): UpdateItemQuantitiesPayload
  removeItemsFromCart(input: RemoveItemsFromCartInput!): RemoveItemsFromCartPayload
  emptyCart(input: EmptyCartInput!): EmptyCartPayload
  applyCoupon(input: ApplyCouponInput!): ApplyCouponPayload
  removeCoupons(input: RemoveCouponsInput!): RemoveCouponsPayload
  updateShippingMethod(input: UpdateShippingMethodInput!): UpdateShippingMethodPayload
  "For a guest (no id, not logged in): sets the session customer's addresses (shipping and tax)."
  updateCustomer(input: UpdateCustomerInput!): UpdateCustomerPayload
}
`;
