/**
 * SDL of the account domains (WooGraphQL's registerCustomer, login/refresh/logout (Headless Login),
 * sendPasswordResetEmail/resetUserPassword, updateUser, updateCustomer for customers, §5 loginClients).
 * Additions to the WooGraphQL shapes, all optional: UpdateUserInput.currentPassword and
 * UpdateCustomerInput.currentPassword (required by this engine to change a password or the e-mail
 * address), refreshToken's rotated refreshToken/refreshTokenExpiration, LogoutInput.refreshToken /
 * LogoutInput.all, reportEmailChange (undo an e-mail change from the notice's link), User.emailVerified
 * and LoginPayload.accountLink with the account-link and e-mail verification mutations.
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
  "Whether the account's e-mail address is confirmed (verification link, password reset or a login provider that verified it)."
  emailVerified: Boolean
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
  "How the customer logs in (Headless Login). Without it, username and password stand for PASSWORD."
  provider: LoginProviderEnum
  credentials: LoginCredentialsInput
  oauthResponse: OAuthProviderResponseInput
  identity: String
  "WPGraphQL JWT Authentication's form of a password login: the user name or e-mail address."
  username: String
  "WPGraphQL JWT Authentication's form of a password login: the password."
  password: String
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
  "Set instead of the tokens when a provider login matched an account it may not be linked to yet: nobody is logged in; the shopper proves the account is theirs with linkAccountWithPassword or sendAccountLinkEmail."
  accountLink: PendingAccountLink
}

"A provider login waiting to be linked to the existing account with the same e-mail address."
type PendingAccountLink {
  "Short-lived, single use, valid only with this browser's woocommerce-session."
  token: String!
  provider: LoginProviderEnum
  "The provider's name as on the login button."
  providerName: String
  "The account's e-mail address (the one the provider named)."
  email: String
  "Unix time (seconds) the token expires, as a string."
  expiresAt: String
}

input LinkAccountWithPasswordInput {
  clientMutationId: String
  "PendingAccountLink.token."
  token: String!
  "The existing account's password."
  password: String!
}
input SendAccountLinkEmailInput {
  clientMutationId: String
  "PendingAccountLink.token."
  token: String!
}
type SendAccountLinkEmailPayload {
  clientMutationId: String
  success: Boolean
}
input LinkAccountFromEmailInput {
  clientMutationId: String
  "The key of the e-mailed link (/my-account/link-account?key=…)."
  key: String!
}

input VerifyEmailInput {
  clientMutationId: String
  "The key of the e-mailed link (/my-account/verify-email?key=…)."
  key: String!
}
type VerifyEmailPayload {
  clientMutationId: String
  success: Boolean
  user: User
}
input SendEmailVerificationInput {
  clientMutationId: String
}
type SendEmailVerificationPayload {
  clientMutationId: String
  success: Boolean
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

input ReportEmailChangeInput {
  clientMutationId: String
  "The token of the link in the notice an e-mail change sends to the previous address."
  token: String!
}
type ReportEmailChangePayload {
  clientMutationId: String
  success: Boolean
  "The restored address, partly hidden; a password-reset link was sent to it."
  email: String
}

input UpdateUserInput {
  clientMutationId: String
  id: ID!
  "Required together with password, and with an email that changes the account's address: the customer's current password."
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

input RootQueryToOrderConnectionWhereArgs {
  "Order number (or part of it)."
  search: String
  statuses: [OrderStatusEnum]
}
${connection('RootQueryToOrderConnection', 'Order')}

extend type RootQuery {
  "The current customer's orders, newest first (at most 100 per page): the same list as customer.orders (the logged-in customer's, or the guest session's own)."
  orders(first: Int, after: String, last: Int, before: String, where: RootQueryToOrderConnectionWhereArgs): RootQueryToOrderConnection
  "The logged-in user; null for guests."
  viewer: User
  "The enabled external login providers (null when none)."
  loginClients: [LoginClient]
  "Everything the shop keeps about the logged-in customer, as a JSON document (the account's Download my data). Needs a login."
  personalDataExport: String
}

extend type RootMutation {
  login(input: LoginInput!): LoginPayload
  refreshToken(input: RefreshTokenInput!): RefreshTokenPayload
  logout(input: LogoutInput!): LogoutPayload
  registerCustomer(input: RegisterCustomerInput!): RegisterCustomerPayload
  sendPasswordResetEmail(input: SendPasswordResetEmailInput!): SendPasswordResetEmailPayload
  resetUserPassword(input: ResetUserPasswordInput!): ResetUserPasswordPayload
  updateUser(input: UpdateUserInput!): UpdateUserPayload
  "Undoes an e-mail change its owner did not make, from the link in the notice sent to the previous address: that address is restored, every login ended, the password retired and a reset link mailed."
  reportEmailChange(input: ReportEmailChangeInput!): ReportEmailChangePayload
  "Links a pending provider login to the existing account with that account's password, and logs in."
  linkAccountWithPassword(input: LinkAccountWithPasswordInput!): LoginPayload
  "Mails the existing account's address a link that completes a pending provider login's link."
  sendAccountLinkEmail(input: SendAccountLinkEmailInput!): SendAccountLinkEmailPayload
  "Completes a provider login's link with the e-mailed key (in the browser that started it), and logs in. The account's password is removed and its other logins end."
  linkAccountFromEmail(input: LinkAccountFromEmailInput!): LoginPayload
  "Confirms the logged-in customer's e-mail address with the key of the e-mailed link."
  verifyEmail(input: VerifyEmailInput!): VerifyEmailPayload
  "Sends the logged-in customer the e-mail that confirms their address again."
  sendEmailVerification(input: SendEmailVerificationInput): SendEmailVerificationPayload
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

export const privacyTypeDefs = /* GraphQL */ `
input DeleteAccountInput {
  clientMutationId: String
  "The account's password (accounts with a password)."
  password: String
  "The key of the e-mailed confirmation link (accounts without a password, see sendAccountDeletionLink)."
  confirmationKey: String
}
type DeleteAccountPayload {
  clientMutationId: String
  "True once the account and its personal data were erased; every login of it has ended."
  deleted: Boolean!
}
input SendAccountDeletionLinkInput {
  clientMutationId: String
}
type SendAccountDeletionLinkPayload {
  clientMutationId: String
  success: Boolean!
}
extend type RootMutation {
  "Erases the logged-in customer's account and personal data (orders stay for the tax office, anonymised; invoices as issued), confirmed with the password or the e-mailed link's key, and mails a confirmation."
  deleteAccount(input: DeleteAccountInput!): DeleteAccountPayload
  "Mails the logged-in customer without a password a link that confirms the deletion of the account (it works only in this login)."
  sendAccountDeletionLink(input: SendAccountDeletionLinkInput): SendAccountDeletionLinkPayload
}
`;
