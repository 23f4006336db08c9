/** The mail module's one import door: settings, the mailer, the mail queue and the message builders. */
export { MailError, isValidEmailAddress } from './address.ts';
export {
  createMailer,
  getMailer,
  readOutbox,
  sendMail,
  type Mailer,
  type OutboxFilter,
  type OutboxMessage,
  type OutgoingMail,
  type SentMail,
} from './mailer.ts';
export {
  MAIL_KINDS,
  MailQueue,
  type DeliveryOutcome,
  type MailKind,
  type MailQueueRow,
  type QueuedMail,
  type SettledHandler,
} from './queue.ts';
export {
  describeMailTransport,
  readMailSettings,
  MailSettingsError,
  type MailQueueSettings,
  type MailSettings,
} from './settings.ts';
export {
  accountLink,
  contactMessage,
  DEFAULT_BRAND,
  emailChanged,
  emailVerification,
  formatCents,
  newsletterConfirm,
  newsletterWelcome,
  orderConfirmation,
  passwordReset,
  type AccountLinkInput,
  type Brand,
  type ContactMessageInput,
  type EmailChangedInput,
  type EmailContent,
  type EmailVerificationInput,
  type NewsletterConfirmInput,
  type NewsletterWelcomeInput,
  type OrderConfirmationInput,
  type PasswordResetInput,
  type PostalAddress,
} from './templates.ts';
