/**
 * The customer's account actions: password login, registration, login with an external provider,
 * logout, and requests that need the login (the account area's), which refresh an expired auth token
 * and try once more. Components call these; none of them touches the stores directly.
 *
 *   await login('ada', 'secret-password');        // tokens stored, viewer set, wishlist merged, cart reloaded
 *   const { customer } = await accountRequest('getOrders');
 *   await logout();                                // server logout, then everything of the login forgotten
 *
 * Tokens are kept where PUBLIC_SESSION_TOKEN_STORAGE says (session.ts). After a login the guest's
 * session cart has already moved to the customer on the engine (WooGraphQL's hand-over at login); the new session token
 * arrives in the payload and replaces the guest's.
 */
import { request, type OperationName, type RequestArgs } from '../graphql/client';
import type { CustomerFragment as Customer, ViewerFragment as EngineViewer } from '../graphql/generated/operations';
import type { LoginProviderEnum as LoginProvider } from '../graphql/generated/schema';
import type { OperationResult, PendingAccountLink } from '../graphql/shapes';
import { isAuthTokenError } from './auth-rules';
import { clearCookies } from './browser-storage';
import { setCustomer } from './customer';
import { RELOAD_COUNT_COOKIE } from './session-rules';
import {
  authRefresher,
  forgetSession,
  getRefreshToken,
  refreshSession,
  sessionReady,
  setLoginTokens,
  setSessionToken,
  toViewer,
} from './session';
import { $viewer, setViewer } from './viewer';
import { clearWishlist } from './wishlist';
import { mergeBrowserWishlist } from './wishlist-sync';

/** Login succeeded on the engine but it would not say who is logged in (the spec's message, as WooNuxt). */
export const CREDENTIALS_BUT_NO_VIEWER =
  'Your credentials are correct, but there was an error logging in. This is most likely due to an SSL error. Please try again later. If the problem persists, please contact support.';

/** The login went through but left no viewer: islands show their own translation of the message above. */
export class NoViewerError extends Error {
  override name = 'NoViewerError';
  constructor() {
    super(CREDENTIALS_BUT_NO_VIEWER);
  }
}

interface LoginLike {
  authToken: string | null;
  refreshToken: string | null;
  refreshTokenExpiration?: string | null;
  sessionToken?: string | null;
  user: EngineViewer | null;
  customer: Customer | null;
}

/** Stores a successful login and brings the page's state up to date. Throws when the payload names no user. */
async function applyLogin(payload: LoginLike | null | undefined): Promise<void> {
  if (!payload?.authToken) throw new NoViewerError();
  if (payload.sessionToken) setSessionToken(payload.sessionToken);
  else if (payload.customer?.sessionToken) setSessionToken(payload.customer.sessionToken);
  setLoginTokens({
    authToken: payload.authToken,
    refreshToken: payload.refreshToken,
    refreshTokenExpiration: payload.refreshTokenExpiration,
  });
  const viewer = toViewer(payload.user, payload.customer);
  if (!viewer) {
    setLoginTokens(null);
    throw new NoViewerError();
  }
  setViewer(viewer);
  setCustomer(payload.customer);
  // Neither must undo the login when it fails: the wishlist merges again on the next visit to the
  // account area, and the cart reloads on the next session start.
  await mergeBrowserWishlist().catch(() => {});
  await refreshSession().catch(() => {});
  // The session start asks the engine who is logged in; a login it does not recognise is no login.
  if (!$viewer.get()) throw new NoViewerError();
}

export async function login(username: string, password: string): Promise<void> {
  await sessionReady();
  const { login: payload } = await request('login', { username: username.trim(), password });
  await applyLogin(payload);
}

export interface RegisterInput {
  email: string;
  password: string;
  username?: string;
  firstName?: string;
  lastName?: string;
}

/** Creates the account and logs in with it (the engine returns the login's tokens). */
export async function register(input: RegisterInput): Promise<void> {
  await sessionReady();
  const variables = {
    email: input.email.trim(),
    password: input.password,
    ...(input.username?.trim() ? { username: input.username.trim() } : {}),
    ...(input.firstName?.trim() ? { firstName: input.firstName.trim() } : {}),
    ...(input.lastName?.trim() ? { lastName: input.lastName.trim() } : {}),
  };
  const { registerCustomer: payload } = await request('registerCustomer', variables);
  await applyLogin(payload && { ...payload, user: payload.viewer });
}

/**
 * Completes an external provider's login with the code and state from its redirect. Returns the account
 * link to ask for when the provider's address belongs to an account that must be proven first (nobody
 * is logged in then), else null (logged in).
 */
export async function loginWithProvider(
  provider: LoginProvider,
  code: string,
  state: string | null,
): Promise<PendingAccountLink | null> {
  await sessionReady();
  const { login: payload } = await request('loginWithProvider', { provider, code, ...(state ? { state } : {}) });
  if (payload?.accountLink && !payload.authToken) return payload.accountLink;
  await applyLogin(payload);
  return null;
}

/** Links the pending provider login to the existing account with its password, and logs in. */
export async function linkAccountWithPassword(token: string, password: string): Promise<void> {
  await sessionReady();
  const { linkAccountWithPassword: payload } = await request('linkAccountWithPassword', { token, password });
  await applyLogin(payload);
}

/** Mails the existing account's address a link that completes the pending provider login's link. */
export async function sendAccountLinkEmail(token: string): Promise<boolean> {
  await sessionReady();
  const { sendAccountLinkEmail: payload } = await request('sendAccountLinkEmail', { token });
  return payload?.success === true;
}

/**
 * Completes the link with the e-mailed key (this browser's session must be the one that started it),
 * and logs in. The engine ends the account's other logins and removes its password.
 */
export async function linkAccountFromEmail(key: string): Promise<void> {
  await sessionReady();
  const { linkAccountFromEmail: payload } = await request('linkAccountFromEmail', { key });
  await applyLogin(payload);
}

/** Confirms the logged-in customer's address with the e-mailed key; the viewer shows it confirmed. */
export async function verifyEmail(key: string): Promise<void> {
  const { verifyEmail: payload } = await accountRequest('verifyEmail', { key });
  if (!payload?.success) throw new Error('');
  const viewer = $viewer.get();
  if (viewer) setViewer({ ...viewer, emailVerified: payload.user?.emailVerified ?? true });
}

/** Mails the logged-in customer the confirmation link again. */
export async function resendEmailVerification(): Promise<boolean> {
  const { sendEmailVerification: payload } = await accountRequest('sendEmailVerification');
  return payload?.success === true;
}

/**
 * Ends the login: the engine revokes it (its refresh token stops working), then the cart, the
 * cookies (except the language choice), the customer, the viewer and the customer's wishlist copy
 * are forgotten. Forgetting happens even if the engine cannot be reached: the shopper asked to leave.
 */
export async function logout(): Promise<void> {
  const refreshToken = getRefreshToken();
  try {
    // The refresh token names the login even when the auth token has run out.
    await request('Logout', { refreshToken });
  } catch {
    // Offline or refused: the tokens are dropped below all the same, and expire on their own.
  }
  forgetSession();
  clearCookies([RELOAD_COUNT_COOKIE, 'locale']);
  clearWishlist();
  // A fresh guest session at once: the provider buttons' login links are bound to the session.
  await refreshSession().catch(() => {});
}

/**
 * "Delete my account": the engine erases the account (confirmed with the password, or with the key of
 * the e-mailed link when it has none) and ends its logins; then everything of the login is forgotten
 * here as on logout. A refusal (wrong password) throws and forgets nothing.
 */
export async function deleteAccount(confirm: { password: string } | { confirmationKey: string }): Promise<void> {
  await accountRequest('deleteAccount', confirm);
  forgetSession();
  clearCookies([RELOAD_COUNT_COOKIE, 'locale']);
  clearWishlist();
  await refreshSession().catch(() => {});
}

/** Mails the account without a password the link that confirms its deletion. */
export async function sendAccountDeletionLink(): Promise<void> {
  await accountRequest('sendAccountDeletionLink');
}

/**
 * A request that needs the login: refreshes a due auth token first, and once more when the engine
 * refuses the token anyway; when even that fails the login is over and the shopper logged out.
 */
export async function accountRequest<N extends OperationName>(
  name: N,
  ...args: RequestArgs<N>
): Promise<OperationResult<N>> {
  await authRefresher.ensureFresh();
  try {
    return await request(name, ...args);
  } catch (error) {
    if (!isAuthTokenError(error)) throw error;
    const outcome = await authRefresher.ensureFresh({ force: true });
    if (outcome !== 'refreshed') {
      forgetSession();
      throw error;
    }
    return request(name, ...args);
  }
}
