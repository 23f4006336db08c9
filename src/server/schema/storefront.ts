/**
 * What a WooGraphQL storefront reads about the shop at build time, in the shapes WPGraphQL
 * (`generalSettings`, `allSettings`) and the WooNuxt settings plugin (`woonuxtSettings`, `Product.fullYoastHead`)
 * give them. Resolvers: src/server/storefront/resolvers.ts.
 */
const FULL_HEAD_FIELD = `
  "The product page's head as HTML (title, description, canonical link, OpenGraph tags, JSON-LD Product), every value escaped. \`frontendUrl\` puts another site's origin in the links; \`imageUrl\` another origin in the media URLs; \`sanitize\` is accepted for compatibility (the head holds only title, meta, link and JSON-LD script tags)."
  fullYoastHead(frontendUrl: String, imageUrl: String, sanitize: Boolean): String`;

export const storefrontTypeDefs = /* GraphQL */ `
"The site's general settings (WordPress's Settings > General)."
type GeneralSettings {
  "The shop's name."
  title: String
  "The shop's tagline."
  description: String
  "The storefront's absolute URL."
  url: String
  "The shop's default language as a WordPress locale (en_US)."
  language: String
  "The time zone the API's dates are given in."
  timezone: String
}

"Every public setting as one flat object (WPGraphQL's allSettings)."
type Settings {
  generalSettingsTitle: String
  generalSettingsDescription: String
  generalSettingsUrl: String
  generalSettingsLanguage: String
  generalSettingsTimezone: String
  "Products per listing page."
  readingSettingsPostsPerPage: Int
}

"A global attribute the storefront offers as a catalog filter."
type WoonuxtOptionsGlobalAttributes {
  label: String
  "The attribute's taxonomy (pa_color)."
  slug: String
  showCount: Boolean
  hideEmpty: Boolean
  openByDefault: Boolean
}

"The card gateway as a browser may know it: never a secret key."
type WoonuxtOptionsStripeSettings {
  "yes or no."
  enabled: String
  "yes or no."
  testmode: String
  test_publishable_key: String
  publishable_key: String
  active_publishable_key: String
  account_id: String
  apple_pay_merchant_identifier: String
}

"One of the shop's social profiles."
type WooNuxtSocialItems {
  provider: String
  url: String
  handle: String
}

"The storefront settings a WooNuxt storefront reads at build time."
type WoonuxtOptions {
  "The default theme's colour (#8200FF)."
  primary_color: String
  "Absolute logo URL; null when the shop shows its mark."
  logo: String
  "The highest catalog price, rounded up to a whole unit: the top of the price filter."
  maxPrice: Int
  productsPerPage: Int
  "The storefront's absolute URL (canonical links)."
  frontEndUrl: String
  "The host name of the shop's site (PUBLIC_SITE_URL)."
  domain: String
  global_attributes: [WoonuxtOptionsGlobalAttributes]
  "on or off: whether the API answers introspection queries."
  publicIntrospectionEnabled: String
  stripeSettings: WoonuxtOptionsStripeSettings
  currencyCode: String
  currencySymbol: String
  wooNuxtSEO: [WooNuxtSocialItems]
}

"A card saved with the payment provider for later checkouts (the WooNuxt settings plugin's type)."
type SavedPaymentMethod {
  "A number standing for the card in this list (derived from its token, stable while the card is saved)."
  id: Int
  "Stripe's payment method id (pm_…): what stripePaymentIntent(paymentMethodId:) and removeSavedPaymentMethod take."
  token: String
  customerId: String
  last4: String
  expiryMonth: String
  expiryYear: String
  "The card brand as Stripe names it (visa, mastercard, amex …)."
  cardType: String
  isDefault: Boolean
}

extend type User {
  "The customer's account at Stripe (made on the first card payment), for the logged-in customer's own account only; null otherwise."
  stripeCustomerId: String
  "The cards the logged-in customer saved with Stripe; empty for anyone else."
  savedPaymentMethods: [SavedPaymentMethod]
}

input RemoveSavedPaymentMethodInput {
  clientMutationId: String
  "The card's token (pm_…)."
  token: String!
}
type RemoveSavedPaymentMethodPayload {
  clientMutationId: String
  "The token removed."
  token: String
  "The cards still saved."
  savedPaymentMethods: [SavedPaymentMethod]
}

extend type RootMutation {
  "Removes one of the logged-in customer's saved cards (detached at Stripe: it can never be charged again). Another customer's card is refused."
  removeSavedPaymentMethod(input: RemoveSavedPaymentMethodInput!): RemoveSavedPaymentMethodPayload
}

extend type RootQuery {
  generalSettings: GeneralSettings
  allSettings: Settings
  woonuxtSettings: WoonuxtOptions
}

extend interface Product {${FULL_HEAD_FIELD}
}
extend type SimpleProduct {${FULL_HEAD_FIELD}
}
extend type VariableProduct {${FULL_HEAD_FIELD}
}
extend type ExternalProduct {${FULL_HEAD_FIELD}
}
extend type GroupProduct {${FULL_HEAD_FIELD}
}
`;
