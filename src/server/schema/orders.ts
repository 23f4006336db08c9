/** SDL of orders, checkout and payment gateways (WooGraphQL's orders, checkout, order statuses, download permissions, and stripePaymentIntent). */
import { connection } from './base.ts';

export const orderTypeDefs = /* GraphQL */ `
enum OrderStatusEnum { PENDING PROCESSING ON_HOLD COMPLETED CANCELLED REFUNDED FAILED CHECKOUT_DRAFT }
enum OrderIdTypeEnum { ID DATABASE_ID ORDER_KEY }
enum StripePaymentMethodEnum { PAYMENT SETUP }

type Order implements Node {
  id: ID!
  "The customer's account, for that customer's own login only (an order-key holder sees the order, not the account)."
  customer: Customer
  databaseId: Int
  orderNumber: String
  "The order's secret (wc_order_…): the order-received link carries it."
  orderKey: String
  status: OrderStatusEnum
  date: String
  modified: String
  datePaid: String
  dateCompleted: String
  currency: String
  paymentMethod: String
  paymentMethodTitle: String
  transactionId: String
  createdVia: String
  customerNote: String
  subtotal(format: PricingFieldFormatEnum): String
  total(format: PricingFieldFormatEnum): String
  totalTax(format: PricingFieldFormatEnum): String
  discountTotal(format: PricingFieldFormatEnum): String
  discountTax(format: PricingFieldFormatEnum): String
  shippingTotal(format: PricingFieldFormatEnum): String
  shippingTax(format: PricingFieldFormatEnum): String
  cartTax(format: PricingFieldFormatEnum): String
  "Whether the order's prices were entered including tax (its amounts are stored without tax either way)."
  pricesIncludeTax: Boolean
  "The business customer's VAT ID, with its country prefix (FR40303265045), or null."
  vatId: String
  "No VAT was charged: the customer accounts for it (reverse charge)."
  vatReverseCharge: Boolean
  "The note the order's invoice carries about its VAT (the reverse charge's), or null."
  vatNote: String
  needsPayment: Boolean
  needsProcessing: Boolean
  needsShippingAddress: Boolean
  hasDownloadableItem: Boolean
  isDownloadPermitted: Boolean
  hasBillingAddress: Boolean
  hasShippingAddress: Boolean
  billing: CustomerAddress
  shipping: CustomerAddress
  metaData(key: String, keysIn: [String]): [MetaData]
  lineItems(first: Int, after: String, last: Int, before: String): OrderToLineItemConnection
  downloadableItems(first: Int, after: String, last: Int, before: String, where: OrderToDownloadableItemConnectionWhereArgs): OrderToDownloadableItemConnection
  "Crypto payments: the currency paid in (KDA); null for other payment methods."
  paymentCurrency: String
  "Crypto payments: the amount due in paymentCurrency, an exact decimal string (e.g. \\"12.345678901234\\")."
  cryptoAmount: String
  "Crypto payments: the rate used, in store currency per unit of paymentCurrency (e.g. \\"0.50\\")."
  cryptoRate: String
  "Crypto payments: the order's own account to pay to (Kadena k:… account)."
  paymentAddress: String
  "Crypto payments: amount seen on chain, not yet confirmed (decimal string)."
  receivedUnconfirmed: String
  "Crypto payments: amount confirmed on chain (decimal string); the order is paid when it reaches cryptoAmount."
  receivedConfirmed: String
  "Crypto payments: seconds left in the payment window (0 when it is over)."
  timeoutValue: Int
  "Crypto payments: when the payment window ends (ISO 8601)."
  paymentExpiresAt: String
  "The order's invoice and credit notes, oldest first: empty until the order is paid (or, paid on delivery, processing)."
  invoices: [OrderInvoice!]!
}

enum OrderInvoiceKindEnum { INVOICE CREDIT_NOTE }
"An invoice or credit note of an order, as issued (a PDF)."
type OrderInvoice {
  kind: OrderInvoiceKindEnum!
  "As printed: 2026-000123."
  number: String!
  "The issue date (YYYY-MM-DD)."
  date: String!
  "The document's total (a credit note's: what it credits)."
  total(format: PricingFieldFormatEnum): String
  "A short-lived link to the PDF (the site's path)."
  downloadUrl: String!
}
type LineItem implements Node {
  id: ID!
  databaseId: Int
  orderId: Int
  productId: Int
  variationId: Int
  quantity: Int
  subtotal(format: PricingFieldFormatEnum): String
  subtotalTax(format: PricingFieldFormatEnum): String
  "Line total after discounts, excl. tax."
  total(format: PricingFieldFormatEnum): String
  totalTax(format: PricingFieldFormatEnum): String
  metaData: [MetaData]
  "The variation's choices as shown when ordering, in the order's language: label (Antennengewinn) and valueName (5,8 dBi) as the customer saw them, name and value the attribute's and term's slugs (pa_gain, 5-8-dbi). Empty for a simple product."
  attributes: [VariationAttribute!]!
  product: LineItemToProductConnectionEdge
  variation: LineItemToProductVariationConnectionEdge
}
type LineItemToProductConnectionEdge {
  node: Product!
}
type LineItemToProductVariationConnectionEdge {
  node: ProductVariation!
}

type DownloadableItem implements Node {
  id: ID!
  downloadId: String!
  name: String
  url: String
  "null = unlimited"
  downloadsRemaining: Int
  "ISO 8601, null = never expires"
  accessExpires: String
  product: ProductUnion
  download: ProductDownload
}

input OrderToDownloadableItemConnectionWhereArgs {
  active: Boolean
  expired: Boolean
  hasDownloadsRemaining: Boolean
}

${connection('OrderToLineItemConnection', 'LineItem')}
${connection('OrderToDownloadableItemConnection', 'DownloadableItem')}

type PaymentGateway implements Node {
  id: ID!
  title: String
  description: String
  icon: String
}
${connection('RootQueryToPaymentGatewayConnection', 'PaymentGateway')}
input RootQueryToPaymentGatewayConnectionWhereArgs {
  all: Boolean
}

type PaymentIntent {
  id: String
  amount: Int
  currency: String
  clientSecret: String
  error: String
  stripePaymentMethod: String
}

input CreateAccountInput {
  username: String!
  password: String!
  authenticate: Boolean
}

input CheckoutInput {
  clientMutationId: String
  paymentMethod: String
  shippingMethod: [String]
  shipToDifferentAddress: Boolean
  billing: CustomerAddressInput
  shipping: CustomerAddressInput
  account: CreateAccountInput
  customerNote: String
  metaData: [MetaDataInput]
  transactionId: String
  "Accepted for compatibility and never trusted: the engine verifies payments itself."
  isPaid: Boolean
  createdVia: String
}
type CheckoutPayload {
  clientMutationId: String
  order: Order
  customer: Customer
  result: String
  redirect: String
}

extend type RootQuery {
  "An order for its owner, or for anyone holding its order key (idType ORDER_KEY, or orderKey beside the id); null otherwise."
  order(id: ID, idType: OrderIdTypeEnum, orderKey: String): Order
  "The enabled payment gateways."
  paymentGateways(first: Int, after: String, where: RootQueryToPaymentGatewayConnectionWhereArgs): RootQueryToPaymentGatewayConnection
  "A Stripe PaymentIntent for the session cart total (PAYMENT). Failures come back in error. A logged-in customer's intent carries the account's Stripe customer (customerId, when given, must be it); saveForFuture keeps the card entered for later checkouts; paymentMethodId pays with one of the customer's saved cards (its token)."
  stripePaymentIntent(stripePaymentMethod: StripePaymentMethodEnum, customerId: String, saveForFuture: Boolean = false, paymentMethodId: String): PaymentIntent
}

input LookupOrderInput {
  clientMutationId: String
  "The order number shown in the confirmation e-mail."
  orderNumber: String!
  "The billing e-mail address of the order."
  email: String!
}

"What the order lookup hands back: enough to open the order's summary with its key."
type LookupOrderPayload {
  clientMutationId: String
  orderId: Int
  orderKey: String
}

extend type RootMutation {
  checkout(input: CheckoutInput!): CheckoutPayload
  "Finds a guest's order by number and billing e-mail. A wrong number and a wrong e-mail both give null, so nothing reveals which orders exist; rate-limited per client address."
  lookupOrder(input: LookupOrderInput!): LookupOrderPayload
}
`;
