/**
 * SDL of the account domains (contract §3 registerCustomer, login/refresh/logout (Headless Login),
 * sendPasswordResetEmail/resetUserPassword, updateUser, updateCustomer for customers, §5 loginClients).
 * Additions to the WooGraphQL shapes, all optional: UpdateUserInput.currentPassword (required by this
 * engine to change a password), refreshToken's rotated refreshToken/refreshTokenExpiration, and
 * LogoutInput.refreshToken / LogoutInput.all.
 */
import { connection } from './base.ts';

export const accountTypeDefs = /* GraphQL */ `
enum LoginProviderEnum { FACEBOOK GITHUB GOOGLE INSTAGRAM LINKEDIN OAUTH2_GENERIC PASSWORD SITETOKEN }

"A registered user (WPGraphQL User); the viewer is the logged-in one."
type User implements Node {
  id: ID!
  databaseId: Int!
  userId: Int
  username: String
  email: String
  firstName: String
  lastName: String
  name: String
  nickname: String
  nicename: String
  slug: String
  "A freshly signed woocommerce-session token for this user's session."
  wooSessionToken: String
  avatar(size: Int): Avatar
}

type LoginClient {
  name: String
  provider: LoginProviderEnum
  isEnabled: Boolean
  "Where the customer's browser goes to log in; carries a state and PKCE challenge issued by this engine for the caller's session."
  authorizationUrl: String
  clientId: ID
  order: Int
}

input LoginCredentialsInput {
  username: String!
  password: String!
}
input OAuthProviderResponseInput {
  code: String!
  state: String
}
input LoginInput {
  clientMutationId: String
  provider: LoginProviderEnum!
  credentials: LoginCredentialsInput
  oauthResponse: OAuthProviderResponseInput
  identity: String
}
type LoginPayload {
  clientMutationId: String
  "Short-lived JWT: send as Authorization: Bearer <authToken>."
  authToken: String
  "Unix time (seconds) the auth token expires, as a string."
  authTokenExpiration: String
  "Rotating refresh token (refreshToken mutation)."
  refreshToken: String
  refreshTokenExpiration: String
  "The woocommerce-session token of the customer's session (the guest cart carried over)."
  sessionToken: String
  wooSessionToken: String @deprecated(reason: "Use sessionToken")
  user: User
  customer: Customer
}

input RefreshTokenInput {
  clientMutationId: String
  refreshToken: String!
}
type RefreshTokenPayload {
  clientMutationId: String
  authToken: String
  authTokenExpiration: String
  "The refresh token to use next time: each refresh rotates it (the one sent stops working)."
  refreshToken: String
  refreshTokenExpiration: String
  success: Boolean
}

input LogoutInput {
  clientMutationId: String
  "Ends the login this refresh token belongs to (when the auth token has already expired)."
  refreshToken: String
  "End every login of this customer (all devices)."
  all: Boolean
}
type LogoutPayload {
  clientMutationId: String
  success: Boolean
}

input RegisterCustomerInput {
  clientMutationId: String
  email: String
  username: String
  password: String
  firstName: String
  lastName: String
  displayName: String
  billing: CustomerAddressInput
  shipping: CustomerAddressInput
  shippingSameAsBilling: Boolean
  authenticate: Boolean
}
type RegisterCustomerPayload {
  clientMutationId: String
  authToken: String
  authTokenExpiration: String
  refreshToken: String
  refreshTokenExpiration: String
  sessionToken: String
  customer: Customer
  viewer: User
}

input SendPasswordResetEmailInput {
  clientMutationId: String
  "Username or e-mail address."
  username: String!
}
type SendPasswordResetEmailPayload {
  clientMutationId: String
  "Always true when the request was accepted (whether or not the account exists)."
  success: Boolean
  user: User @deprecated(reason: "Always null: the answer must not tell whether an account exists")
}

input ResetUserPasswordInput {
  clientMutationId: String
  key: String
  login: String
  password: String
}
type ResetUserPasswordPayload {
  clientMutationId: String
  user: User
}

input UpdateUserInput {
  clientMutationId: String
  id: ID!
  "Required together with password: the customer's current password."
  currentPassword: String
  password: String
  email: String
  firstName: String
  lastName: String
  displayName: String
  nickname: String
}
type UpdateUserPayload {
  clientMutationId: String
  user: User
}

input CustomerToOrderConnectionWhereArgs {
  "Order number (or part of it)."
  search: String
  statuses: [OrderStatusEnum]
}
${connection('CustomerToOrderConnection', 'Order')}

extend type Customer {
  "The customer's orders, newest first (at most 100 per page): the logged-in customer's, or the guest session's own."
  orders(first: Int, after: String, last: Int, before: String, where: CustomerToOrderConnectionWhereArgs): CustomerToOrderConnection
  "Date the account was created (ISO 8601)."
  date: String
}

extend type RootQuery {
  "The logged-in user; null for guests."
  viewer: User
  "The enabled external login providers (null when none)."
  loginClients: [LoginClient]
}

extend type RootMutation {
  login(input: LoginInput!): LoginPayload
  refreshToken(input: RefreshTokenInput!): RefreshTokenPayload
  logout(input: LogoutInput!): LogoutPayload
  registerCustomer(input: RegisterCustomerInput!): RegisterCustomerPayload
  sendPasswordResetEmail(input: SendPasswordResetEmailInput!): SendPasswordResetEmailPayload
  resetUserPassword(input: ResetUserPasswordInput!): ResetUserPasswordPayload
  updateUser(input: UpdateUserInput!): UpdateUserPayload
}
`;

export const reviewTypeDefs = /* GraphQL */ `
input WriteReviewInput {
  clientMutationId: String
  "1 to 5 stars."
  rating: Int!
  "The product's database id."
  commentOn: Int
  "Plain text (HTML is shown as typed, escaped)."
  content: String
  author: String
  authorEmail: String
  authorUrl: String
}
type WriteReviewPayload {
  clientMutationId: String
  rating: Float
  "The review; status HOLD (approved false) while it waits for approval."
  review: Comment
}
extend type RootMutation {
  writeReview(input: WriteReviewInput!): WriteReviewPayload
}
`;

export const downloadTypeDefs = /* GraphQL */ `
input CustomerToDownloadableItemConnectionWhereArgs {
  "Not expired and downloads left."
  active: Boolean
  expired: Boolean
  hasDownloadsRemaining: Boolean
}
${connection('CustomerToDownloadableItemConnection', 'DownloadableItem')}
extend type Customer {
  "The logged-in customer's downloadable files (at most 100 per page); url is a signed link that works for a short time."
  downloadableItems(first: Int, after: String, last: Int, before: String, where: CustomerToDownloadableItemConnectionWhereArgs): CustomerToDownloadableItemConnection
}
`;

export const wishlistTypeDefs = /* GraphQL */ `
${connection('CustomerToWishlistConnection', 'Product')}
extend type Customer {
  "The logged-in customer's saved products, newest first (empty for guests: their list stays in the browser)."
  wishlist(first: Int, after: String, last: Int, before: String): CustomerToWishlistConnection
}
input AddToWishlistInput {
  clientMutationId: String
  productId: Int!
}
type AddToWishlistPayload {
  clientMutationId: String
  "The wishlist's product ids after the change, newest first."
  productIds: [Int!]!
  customer: Customer
}
input RemoveFromWishlistInput {
  clientMutationId: String
  productId: Int!
}
type RemoveFromWishlistPayload {
  clientMutationId: String
  productIds: [Int!]!
  customer: Customer
}
input MergeWishlistInput {
  clientMutationId: String
  "The browser's (guest) wishlist, newest first: merged into the stored one after login."
  productIds: [Int!]!
}
type MergeWishlistPayload {
  clientMutationId: String
  productIds: [Int!]!
  customer: Customer
}
extend type RootMutation {
  addToWishlist(input: AddToWishlistInput!): AddToWishlistPayload
  removeFromWishlist(input: RemoveFromWishlistInput!): RemoveFromWishlistPayload
  mergeWishlist(input: MergeWishlistInput!): MergeWishlistPayload
}
`;
