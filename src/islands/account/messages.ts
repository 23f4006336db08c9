/**
 * What the account forms say when the engine refuses something. The engine's customer-facing
 * messages are English (the spec's wording); the ones a shopper commonly meets are shown in the page's
 * language, anything else as the engine wrote it (a rate limit, a duplicate e-mail), and failures
 * without a message (network, timeout) as the form's own fallback text.
 */
import type { Lookup } from '../../lib/i18n/lookup';
import { engineMessage } from '../../stores/engine-message';

/** Engine message → locale key (src/server/auth/service.ts, customers/service.ts, passwords.ts). */
const KNOWN: Readonly<Record<string, string>> = {
  'No account found with that username. Sign up for a new account.': 'account.error.unknownUsername',
  'Incorrect password. Please try again.': 'account.error.wrongPassword',
  'Password reset link is invalid.': 'account.error.invalidLink',
  // E-mail verification and linking a provider login to an existing account (auth/service.ts, auth/oauth.ts).
  'This confirmation link is invalid or has expired.': 'account.verify.invalid',
  'The e-mail could not be sent. Please try again later.': 'account.error.mailNotSent',
  'This request to link your login has expired or was already used. Please log in with your provider again.':
    'account.link.expired',
  'Please open this link in the browser where you started logging in.': 'account.link.otherBrowser',
  'This account has no password. Ask for a link by e-mail instead.': 'account.link.noPassword',
  'Please enter the password of your account.': 'account.error.required',
  'Your current password is incorrect.': 'account.error.currentWrong',
  'This password is too common. Please choose a less common password.': 'account.error.passwordCommon',
  'Password must not be your username or e-mail address.': 'account.error.passwordPersonal',
  'Please enter your current password to change your e-mail address.': 'account.error.currentRequiredForEmail',
  'Your account does not have a password yet. Set one with “Forgot your password?” first, then try again.':
    'account.error.noPasswordYet',
  // src/server/auth/email-change.ts, customers/service.ts: the "this wasn't me" link of an e-mail change.
  'This link is invalid or has expired.': 'account.emailReport.invalid',
  'This link no longer applies: the e-mail address of the account was already restored or has changed again since.':
    'account.emailReport.noLongerApplies',
  'Your previous e-mail address now belongs to another account, so it cannot be restored here. Please contact us.':
    'account.emailReport.taken',
};

/** Errors that carry no message worth showing. */
function isTransport(error: unknown): boolean {
  if (!(error instanceof Error)) return true;
  if (error.name === 'TimeoutError') return true;
  // No GraphQL error: a network failure, or an HTTP error page (its text is not for shoppers).
  const apiErrors = (error as { errors?: readonly unknown[] }).errors;
  return error.name === 'GraphQLRequestError' && !apiErrors?.length;
}

export function accountErrorText(error: unknown, t: Lookup, fallbackKey: string): string {
  if (isTransport(error)) return t(fallbackKey);
  const message = engineMessage(error);
  const key = KNOWN[message];
  if (key) return t(key);
  return message || t(fallbackKey);
}

/** The current-password field's error key when the engine refused the current password (missing or wrong). */
export function currentPasswordError(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const key = KNOWN[engineMessage(error)];
  return key === 'account.error.currentWrong' || key === 'account.error.currentRequiredForEmail' ? key : null;
}

/** True when the engine said a "this wasn't me" link can do nothing more (invalid, expired, spent, address taken). */
export function isDeadReportLink(error: unknown): boolean {
  return error instanceof Error && (KNOWN[engineMessage(error)] ?? '').startsWith('account.emailReport.');
}

/** True when the engine said the reset link is no good (used, expired, or for another account). */
export function isInvalidResetLink(error: unknown): boolean {
  return error instanceof Error && engineMessage(error) === 'Password reset link is invalid.';
}

/** True when the engine said the confirmation link is no good (used, expired, replaced, or another account's). */
export function isInvalidVerificationLink(error: unknown): boolean {
  return error instanceof Error && engineMessage(error) === 'This confirmation link is invalid or has expired.';
}
