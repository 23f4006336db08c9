/**
 * The admin GraphQL schema (served at /api/admin/graphql, never part of the storefront's /graphql).
 * Plain types made for an operator UI: money is integer cents (`…Cents: Int`), dates are ISO 8601
 * strings, lists are pages with a total (`first`/`offset`). Every field requires a shop manager.
 */
export const adminTypeDefs = /* GraphQL */ `
type Query {
  "Who is asking (null for a guest): the admin UI checks the role before it shows anything."
  adminViewer: AdminUser
  "Today's orders and revenue (UTC day), orders by status, low stock, unanswered messages, reviews waiting."
  adminDashboard: AdminDashboard!

  "Products of any status, by menu order. search: name, slug or SKU; lowStock: only products at or below their low-stock amount."
  adminProducts(search: String, status: AdminProductStatus, categoryId: Int, lowStock: Boolean, first: Int, offset: Int): AdminProductPage!
  adminProduct(id: Int!): AdminProduct
  adminCategories: [AdminCategory!]!

  "Orders, newest first. customer: a user id, or part of the billing e-mail or name. dateFrom/dateTo: YYYY-MM-DD (inclusive) or ISO date-times."
  adminOrders(status: [AdminOrderStatus!], dateFrom: String, dateTo: String, customer: String, first: Int, offset: Int): AdminOrderPage!
  adminOrder(id: Int!): AdminOrder

  adminCoupons(search: String, first: Int, offset: Int): AdminCouponPage!
  adminCoupon(id: Int, code: String): AdminCoupon

  adminReviews(status: AdminReviewStatus, productId: Int, first: Int, offset: Int): AdminReviewPage!
  adminContactMessages(answered: Boolean, first: Int, offset: Int): AdminContactMessagePage!
  adminNewsletterSubscribers(status: AdminSubscriberStatus, first: Int, offset: Int): AdminSubscriberPage!
  "A CSV file (UTF-8, CRLF) of every contact message or newsletter subscriber (subscribers optionally by status)."
  adminExportCsv(kind: AdminExportKind!, status: AdminSubscriberStatus): AdminCsvExport!
  "A customer account by e-mail address (any case); null when there is none."
  adminCustomer(email: String!): AdminCustomer
  "The audit log of customers' data exports and erasures, newest first; only one address's entries when email is given."
  adminPrivacyLog(email: String, first: Int, offset: Int): AdminPrivacyLogPage!
  "The static site: is a publish running, did the last one fail, are catalog changes waiting (stale)?"
  adminPublishStatus: AdminPublishStatus!
  "Mail that failed (attempts used up, or refused for good) and mail being retried after a failure; most recently tried first."
  adminFailedMails(first: Int, offset: Int): AdminMailPage!
}

type Mutation {
  adminCreateProduct(input: AdminProductInput!): AdminProduct!
  "Changes only the fields given."
  adminUpdateProduct(id: Int!, input: AdminProductInput!): AdminProduct!
  "Hides the product from the shop (status private); set status PUBLISH to bring it back."
  adminArchiveProduct(id: Int!): AdminProduct!
  "Stock of a product or a variation (ids are shared)."
  adminSetStock(id: Int!, input: AdminStockInput!): AdminStockResult!
  "Price of a product or a variation; salePriceCents null ends the sale. Sale dates only for products."
  adminSetPrice(id: Int!, input: AdminPriceInput!): AdminStockResult!
  adminCreateVariation(productId: Int!, input: AdminVariationInput!): AdminVariation!
  adminUpdateVariation(id: Int!, input: AdminVariationInput!): AdminVariation!
  adminDeleteVariation(id: Int!): Boolean!
  "An image for products and categories, base64 (PNG, JPEG, GIF, WebP, AVIF; ADMIN_MAX_UPLOAD_BYTES)."
  adminUploadImage(input: AdminImageUploadInput!): AdminImage!
  "A downloadable file: uploaded (contentBase64) or one already in the data directory's downloads/ (fileName only)."
  adminAddProductDownload(input: AdminDownloadInput!): AdminProduct!
  adminRemoveProductDownload(downloadId: String!): AdminProduct!

  adminCreateCategory(input: AdminCategoryInput!): AdminCategory!
  adminUpdateCategory(id: Int!, input: AdminCategoryInput!): AdminCategory!
  "Products keep existing without the category; its sub-categories move up."
  adminDeleteCategory(id: Int!): Boolean!

  "COMPLETED (from processing/on hold; tracking note and customer e-mail), PROCESSING (from on hold), ON_HOLD, CANCELLED (stock and coupon uses back)."
  adminUpdateOrderStatus(input: AdminOrderStatusInput!): AdminOrderStatusResult!
  adminAddOrderNote(orderId: Int!, note: String!): AdminOrder!
  "Refund all that is left (no amountCents) or part. Card orders through Stripe; others recorded. The same idempotencyKey never refunds twice."
  adminRefundOrder(input: AdminRefundInput!): AdminRefundResult!

  adminCreateCoupon(input: AdminCouponInput!): AdminCoupon!
  adminUpdateCoupon(id: Int!, input: AdminCouponInput!): AdminCoupon!
  "Expires the coupon now (kept with its usage)."
  adminExpireCoupon(id: Int!): AdminCoupon!

  adminModerateReview(id: Int!, status: AdminReviewStatus!): AdminReview!
  adminSetMessageAnswered(id: Int!, answered: Boolean!): AdminContactMessage!
  "Rebuild the static pages from the catalog and switch to them atomically; answers at once (poll adminPublishStatus). CONFLICT while one runs."
  adminPublish: AdminPublishStatus!
  "Sends a mail again: a failed one gets a fresh set of attempts, the first one now. CONFLICT for a mail that was sent or cancelled."
  adminRetryMail(id: Int!): AdminMailRetryResult!
  "Every failed mail gets a fresh set of attempts (once the mail server works again); answers how many."
  adminRetryFailedMails: Int!
  "Everything the shop keeps about the customer, as the JSON file their own Download my data gives (for a request to the shop). Written to the audit log."
  adminExportCustomerData(email: String!): AdminCustomerDataExport!
  "Erases the customer on their request, as their own Delete my account does (orders stay anonymised, invoices as issued; a confirmation is mailed). confirmEmail repeats the address. Written to the audit log. FORBIDDEN for a shop manager."
  adminEraseCustomer(email: String!, confirmEmail: String!): AdminErasureResult!
}

type AdminUser { id: Int! username: String! email: String! displayName: String! role: String! }

type AdminStatusCount { status: AdminOrderStatus! count: Int! }
type AdminLowStockItem { productId: Int! variationId: Int name: String! sku: String! stockQuantity: Int! lowStockAmount: Int! stockStatus: String! }
type AdminDashboard {
  "The UTC day the figures are for (YYYY-MM-DD)."
  date: String!
  "Today's orders that count as sales (processing, on hold, completed, refunded)."
  ordersToday: Int!
  "Their total minus what was refunded of them."
  revenueTodayCents: Int!
  ordersToShip: Int!
  ordersByStatus: [AdminStatusCount!]!
  lowStock: [AdminLowStockItem!]!
  unansweredMessages: Int!
  pendingReviews: Int!
}

enum AdminProductStatus { PUBLISH DRAFT PRIVATE }
enum AdminProductType { SIMPLE VARIABLE EXTERNAL }
enum AdminVisibility { VISIBLE CATALOG SEARCH HIDDEN }
enum AdminBackorders { NO NOTIFY YES }
enum AdminStockStatus { INSTOCK OUTOFSTOCK ONBACKORDER }

type AdminImage { id: Int! url: String! altText: String! width: Int height: Int }
type AdminTerm { id: Int! name: String! slug: String! }
type AdminAttribute { name: String! options: [String!]! visible: Boolean! variation: Boolean! }
type AdminDownload { id: String! name: String! file: String! }
type AdminVariation {
  id: Int!
  productId: Int!
  sku: String!
  "The attribute slugs and their values' slugs (pa_gain = 5-8-dbi): what the variation form sends back."
  attributes: [AdminAttributeValue!]!
  "The choices by term name, as the shop shows them in English: EU868, 5.8 dBi (empty for any value of every attribute)."
  label: String!
  regularPriceCents: Int!
  salePriceCents: Int
  manageStock: Boolean!
  stockQuantity: Int
  lowStockAmount: Int
  backorders: AdminBackorders!
  stockStatus: AdminStockStatus!
  description: String!
  image: AdminImage
}
type AdminAttributeValue { name: String! value: String! }
type AdminProduct {
  id: Int!
  name: String!
  slug: String!
  sku: String!
  type: AdminProductType!
  status: AdminProductStatus!
  visibility: AdminVisibility!
  featured: Boolean!
  menuOrder: Int!
  shortDescription: String!
  description: String!
  regularPriceCents: Int
  salePriceCents: Int
  dateOnSaleFrom: String
  dateOnSaleTo: String
  "Current price (sale applied when it runs now); the cheapest variation for variable products."
  priceCents: Int
  onSale: Boolean!
  manageStock: Boolean!
  stockQuantity: Int
  lowStockAmount: Int
  backorders: AdminBackorders!
  "Derived: from the quantity when stock is managed, else as stored; any variation's for variable products."
  stockStatus: AdminStockStatus!
  virtual: Boolean!
  downloadable: Boolean!
  downloadLimit: Int
  downloadExpiry: Int
  downloads: [AdminDownload!]!
  externalUrl: String
  buttonText: String
  reviewsAllowed: Boolean!
  totalSales: Int!
  image: AdminImage
  gallery: [AdminImage!]!
  categories: [AdminTerm!]!
  attributes: [AdminAttribute!]!
  variations: [AdminVariation!]!
  "Name and descriptions in the shop's other languages (a missing field shows the English text)."
  translations: [AdminTranslation!]!
  "Storefront page path (/products/<slug>/)."
  permalink: String!
  dateCreated: String!
  dateModified: String!
}
type AdminProductPage { total: Int! nodes: [AdminProduct!]! }
type AdminCategory { id: Int! name: String! slug: String! description: String! parentId: Int menuOrder: Int! count: Int! image: AdminImage translations: [AdminTranslation!]! }
"A catalog text in one of the shop's other languages (de_DE, es_ES, fr_FR, it_IT, pt_BR); null: the English text is shown."
type AdminTranslation { locale: String! name: String shortDescription: String description: String }
input AdminTranslationInput { locale: String! name: String shortDescription: String description: String }

input AdminAttributeInput { name: String! options: [String!]! visible: Boolean variation: Boolean }
input AdminProductInput {
  name: String
  slug: String
  sku: String
  type: AdminProductType
  status: AdminProductStatus
  visibility: AdminVisibility
  featured: Boolean
  menuOrder: Int
  shortDescription: String
  description: String
  regularPriceCents: Int
  salePriceCents: Int
  "YYYY-MM-DD or ISO date-time; null clears."
  dateOnSaleFrom: String
  dateOnSaleTo: String
  manageStock: Boolean
  stockQuantity: Int
  lowStockAmount: Int
  backorders: AdminBackorders
  stockStatus: AdminStockStatus
  virtual: Boolean
  downloadable: Boolean
  "Downloads per purchased unit; null = unlimited."
  downloadLimit: Int
  "Days after purchase; null = never expires."
  downloadExpiry: Int
  externalUrl: String
  buttonText: String
  reviewsAllowed: Boolean
  weight: String
  categoryIds: [Int!]
  imageId: Int
  galleryImageIds: [Int!]
  attributes: [AdminAttributeInput!]
  "Replaces the stored translations; a locale or field left out or empty shows the English text."
  translations: [AdminTranslationInput!]
}
input AdminStockInput { stockQuantity: Int manageStock: Boolean lowStockAmount: Int backorders: AdminBackorders stockStatus: AdminStockStatus }
input AdminPriceInput { regularPriceCents: Int salePriceCents: Int dateOnSaleFrom: String dateOnSaleTo: String }
type AdminStockResult { kind: String! product: AdminProduct! variation: AdminVariation }
input AdminAttributeValueInput { name: String! value: String! }
input AdminVariationInput {
  sku: String
  attributes: [AdminAttributeValueInput!]
  regularPriceCents: Int
  salePriceCents: Int
  manageStock: Boolean
  stockQuantity: Int
  lowStockAmount: Int
  backorders: AdminBackorders
  stockStatus: AdminStockStatus
  description: String
  imageId: Int
  menuOrder: Int
}
input AdminImageUploadInput { fileName: String! contentBase64: String! altText: String }
input AdminDownloadInput { productId: Int! name: String! fileName: String! contentBase64: String }
input AdminCategoryInput { name: String slug: String description: String parentId: Int menuOrder: Int imageId: Int translations: [AdminTranslationInput!] }

enum AdminOrderStatus { PENDING PROCESSING ON_HOLD COMPLETED CANCELLED REFUNDED FAILED }
type AdminAddress { firstName: String! lastName: String! company: String! address1: String! address2: String! city: String! state: String! postcode: String! country: String! email: String! phone: String! }
"Amounts are net (excl. tax) except where named gross; the unit price is what was charged (including tax when the order's prices did)."
type AdminOrderItem { id: Int! productId: Int! variationId: Int name: String! sku: String! quantity: Int! subtotalCents: Int! subtotalTaxCents: Int! totalCents: Int! totalTaxCents: Int! totalGrossCents: Int! unitPriceCents: Int! taxRateBasisPoints: Int! attributes: [AdminAttributeValue!]! }
type AdminOrderNote { note: String! date: String! }
type AdminRefund { id: Int! orderId: Int! amountCents: Int! reason: String! method: String! status: String! stripeRefundId: String error: String createdBy: String! date: String! }
type AdminOrder {
  id: Int!
  number: String!
  status: AdminOrderStatus!
  "The customer's user id, null for a guest order."
  customerUserId: Int
  customerEmail: String!
  customerName: String!
  billing: AdminAddress!
  shipping: AdminAddress!
  paymentMethod: String!
  paymentMethodTitle: String!
  transactionId: String
  currency: String!
  "Net amounts (excl. tax), as stored; each tax beside them."
  subtotalCents: Int!
  discountCents: Int!
  discountTaxCents: Int!
  shippingCents: Int!
  shippingTaxCents: Int!
  totalTaxCents: Int!
  totalCents: Int!
  "The shop's prices included tax when the order was placed."
  pricesIncludeTax: Boolean!
  "The business customer's VAT ID, or null."
  vatId: String
  "The VAT ID was taken while VIES could not check it: check it before shipping."
  vatIdUnverified: Boolean!
  "No VAT charged: the customer accounts for it (reverse charge)."
  vatReverseCharge: Boolean!
  "The note the order's invoice carries about its VAT, or null."
  vatNote: String
  refundedCents: Int!
  "What can still be refunded."
  refundableCents: Int!
  couponCodes: [String!]!
  shippingMethod: String
  customerNote: String!
  dateCreated: String!
  datePaid: String
  dateCompleted: String
  items: [AdminOrderItem!]!
  notes: [AdminOrderNote!]!
  refunds: [AdminRefund!]!
}
type AdminOrderPage { total: Int! nodes: [AdminOrder!]! }
enum AdminOrderMove { COMPLETED PROCESSING ON_HOLD CANCELLED }
input AdminOrderStatusInput {
  orderId: Int!
  status: AdminOrderMove!
  note: String
  trackingNumber: String
  trackingCarrier: String
  trackingUrl: String
  "Completion only: e-mail the customer (default true)."
  notifyCustomer: Boolean
}
type AdminOrderStatusResult { order: AdminOrder! customerNotified: Boolean! }
input AdminRefundInput {
  orderId: Int!
  "Omit to refund all that is left."
  amountCents: Int
  reason: String
  "A new random key per refund (8-100 of A-Z a-z 0-9 : . _ -); sending it again returns the same refund."
  idempotencyKey: String!
}
type AdminRefundResult { refund: AdminRefund! order: AdminOrder! "True when this key had been used: nothing new was refunded." replayed: Boolean! }

enum AdminDiscountType { PERCENT FIXED_CART FIXED_PRODUCT }
type AdminCouponUsage { orderId: Int! customer: String! date: String! }
type AdminCoupon {
  id: Int!
  code: String!
  description: String!
  discountType: AdminDiscountType!
  "Cents; for PERCENT hundredths of a percent (10% = 1000)."
  amountCents: Int!
  expiresAt: String
  expired: Boolean!
  usageLimit: Int
  usageLimitPerUser: Int
  usageCount: Int!
  minimumCents: Int
  maximumCents: Int
  individualUse: Boolean!
  freeShipping: Boolean!
  excludeSaleItems: Boolean!
  productSlugs: [String!]!
  excludedProductSlugs: [String!]!
  categorySlugs: [String!]!
  excludedCategorySlugs: [String!]!
  emailRestrictions: [String!]!
  usages(first: Int): [AdminCouponUsage!]!
  dateCreated: String!
}
type AdminCouponPage { total: Int! nodes: [AdminCoupon!]! }
input AdminCouponInput {
  code: String
  description: String
  discountType: AdminDiscountType
  amountCents: Int
  "YYYY-MM-DD (expires at 00:00 UTC of that day) or ISO date-time; null = never."
  expiresAt: String
  usageLimit: Int
  usageLimitPerUser: Int
  minimumCents: Int
  maximumCents: Int
  individualUse: Boolean
  freeShipping: Boolean
  excludeSaleItems: Boolean
  productSlugs: [String!]
  excludedProductSlugs: [String!]
  categorySlugs: [String!]
  excludedCategorySlugs: [String!]
  emailRestrictions: [String!]
}

enum AdminReviewStatus { APPROVED PENDING REJECTED }
type AdminReview { id: Int! productId: Int! productName: String! author: String! email: String! rating: Int! content: String! date: String! verified: Boolean! status: AdminReviewStatus! }
type AdminReviewPage { total: Int! nodes: [AdminReview!]! }

type AdminContactMessage { id: Int! firstName: String! lastName: String! email: String! phone: String! message: String! locale: String date: String! answered: Boolean! answeredAt: String mailStatus: String! }
type AdminContactMessagePage { total: Int! nodes: [AdminContactMessage!]! }

enum AdminSubscriberStatus { PENDING CONFIRMED UNSUBSCRIBED }
type AdminSubscriber { id: Int! email: String! status: AdminSubscriberStatus! locale: String! date: String! confirmedAt: String unsubscribedAt: String }
type AdminSubscriberPage { total: Int! nodes: [AdminSubscriber!]! }

enum AdminPublishState { IDLE RUNNING FAILED }
type AdminPublishStatus {
  state: AdminPublishState!
  startedAt: String
  finishedAt: String
  error: String
  "The last lines of the build log."
  logTail: [String!]!
  lastPublishedAt: String
  lastBuildId: String
  "Catalog changes not yet on the static pages (live price and stock are current anyway)."
  stale: Boolean!
  staleSince: String
  catalogVersion: Int!
  publishedCatalogVersion: Int
}

enum AdminExportKind { CONTACT_MESSAGES NEWSLETTER_SUBSCRIBERS }

enum AdminMailStatus { QUEUED SENT FAILED CANCELLED }
type AdminMail {
  id: Int!
  "What caused it: order-confirmation, order-completed, password-reset, email-verification, email-changed, account-link, contact-message, newsletter-confirmation, newsletter-welcome."
  kind: String!
  "kind:event, one mail per event (e.g. order-confirmation:1144)."
  idempotencyKey: String!
  recipients: [String!]!
  subject: String!
  status: AdminMailStatus!
  attempts: Int!
  "MAIL_MAX_ATTEMPTS: a mail is failed after this many attempts."
  maxAttempts: Int!
  "The last failure (addresses blanked out)."
  lastError: String
  "When a queued mail is tried next."
  nextAttemptAt: String
  createdAt: String!
  updatedAt: String!
  sentAt: String
}
type AdminMailPage { total: Int! nodes: [AdminMail!]! }
type AdminMailRetryResult { mail: AdminMail! "True when the mail went out on this attempt." sent: Boolean! }
type AdminCsvExport { fileName: String! contentType: String! rows: Int! csv: String! }
type AdminCustomer {
  id: Int!
  email: String!
  username: String!
  displayName: String!
  role: String!
  createdAt: String!
  emailVerified: Boolean!
  "False for accounts that log in through a login provider only."
  hasPassword: Boolean!
  orderCount: Int!
}
type AdminCustomerDataExport { fileName: String! contentType: String! json: String! }
"What an erasure did: counts only."
type AdminErasureResult {
  customerId: Int!
  ordersAnonymised: Int!
  reviewsAnonymised: Int!
  reviewsDeleted: Int!
  contactMessagesDeleted: Int!
  newsletterSignUpDeleted: Boolean!
  mailsDeleted: Int!
}
enum AdminPrivacyAction { CUSTOMER_EXPORT CUSTOMER_ERASE }
type AdminPrivacyLogEntry {
  id: Int!
  at: String!
  "user:<id> (a shop manager in /admin) or cli:<os user>."
  actor: String!
  action: AdminPrivacyAction!
  customerId: Int!
  "A keyed hash of the customer's e-mail address (never the address): the same address gives the same reference."
  customerRef: String!
}
type AdminPrivacyLogPage { total: Int! nodes: [AdminPrivacyLogEntry!]! }
`;
