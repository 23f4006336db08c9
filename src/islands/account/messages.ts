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
  'Your current password is incorrect.': 'account.error.currentWrong',
  'This password is too common. Please choose a less common password.': 'account.error.passwordCommon',
  'Password must not be your username or e-mail address.': 'account.error.passwordPersonal',
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

/** True when the engine said the reset link is no good (used, expired, or for another account). */
export function isInvalidResetLink(error: unknown): boolean {
  return error instanceof Error && engineMessage(error) === 'Password reset link is invalid.';
}
