/**
 * The messages the shop sends, each built in a plain-text and an HTML version from a plain typed input.
 * Inputs are the mail module's own shapes (not other domains' rows), so orders, accounts, contact and the
 * newsletter each map their data here. Every interpolated value is escaped by `html`; links must be
 * absolute http(s) URLs; shopper text that reaches a subject is flattened to one line.
 *
 * The result spreads straight into sendMail: `sendMail({ to, ...passwordReset({ resetUrl }) })`.
 */
export { DEFAULT_BRAND, type Brand } from '../layout.ts';
export {
  accountDeleted,
  accountDeletionLink,
  accountLink,
  emailChanged,
  emailVerification,
  passwordReset,
  type AccountDeletedInput,
  type AccountDeletionLinkInput,
  type AccountLinkInput,
  type EmailChangedInput,
  type EmailVerificationInput,
  type PasswordResetInput,
} from './account.ts';
export { contactMessage, type ContactMessageInput } from './contact.ts';
export {
  newsletterConfirm,
  newsletterWelcome,
  type NewsletterConfirmInput,
  type NewsletterWelcomeInput,
} from './newsletter.ts';
export {
  orderCompleted,
  orderConfirmation,
  orderInvoice,
  type OrderCompletedInput,
  type OrderConfirmationInput,
  type OrderInvoiceInput,
} from './order.ts';
export { formatCents, type EmailContent, type PostalAddress } from './shared.ts';
