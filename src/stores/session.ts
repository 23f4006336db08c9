/**
 * The commerce session: the `woocommerce-session` token (and the login's auth token) kept in the
 * browser and plugged into the GraphQL client, and session start — ONE getCart call that refreshes the
 * cart, the customer, the viewer, the payment gateways and the login providers.
 *
 *   await startSession();   // idempotent: the first call starts it, later calls wait for the same start
 *   await refreshSession(); // another getCart (e.g. after the shipping country changed)
 *
 * Where the token lives is a setting: PUBLIC_SESSION_TOKEN_STORAGE = 'cookie' (default; cookie
 * `woocommerce-session`, as WooNuxt keeps it) or 'localStorage'. The engine issues a fresh token in
 * `customer.sessionToken` on every start, and after session mutations in the response header (the
 * client hands it to `setSessionToken`).
 *
 * Failure rules (session-rules.ts): 'The iss do not match with this server' and 'Invalid session token'
 * clear cookies and local storage and reload. Any other API error: cookies cleared, cart and gateways
 * reset, local storage cleared, and once per visitor (reload-count cookie) the user is logged out and
 * the page reloaded. A network failure or timeout only resets the in-memory state and tells the user:
 * the stored session may be perfectly fine.
 */
import { atom } from 'nanostores';
import { configureClient, request } from '../graphql/client';
import type { CustomerFragment as Customer, ViewerFragment as EngineViewer } from '../graphql/generated/operations';
import {
  clearCookies,
  clearLocal,
  deleteCookie,
  readCookie,
  readLocal,
  writeCookie,
  writeLocal,
} from './browser-storage';
import { replaceCart, resetCart } from './cart-state';
import { CONSENT_STORAGE_KEY } from './consent';
import { createAuthRefresher } from './auth-refresh';
import { needsRefresh, secondsUntil, tokenExpiry } from './auth-rules';
import { setCustomer, setLoginClients } from './customer';
import { resetPaymentGateways, setPaymentGateways } from './gateways';
import { raiseAlert } from './alert';
import { engineMessage } from './engine-message';
import { setViewer, type Viewer } from './viewer';
import {
  classifySessionFailure,
  mayReloadAfterFailure,
  mayResetReload,
  RELOAD_COUNT_COOKIE,
  type SessionFailure,
} from './session-rules';

export const SESSION_COOKIE = 'woocommerce-session';
export const AUTH_COOKIE = 'meshfront-auth';
/** localStorage keys when the setting says 'localStorage'. */
export const SESSION_STORAGE_KEY = 'meshfront:woocommerce-session';
export const AUTH_STORAGE_KEY = 'meshfront:auth';
/** The login's refresh token, kept where the auth token is (same setting). */
export const REFRESH_COOKIE = 'meshfront-refresh';
export const REFRESH_STORAGE_KEY = 'meshfront:refresh';
/** Used when the engine does not say how long a refresh token lives (its default, REFRESH_TOKEN_TTL_DAYS). */
const REFRESH_MAX_AGE = 30 * 24 * 60 * 60;
/** Kept through a reset: the visitor's language choice and the once-per-visitor reload marker. */
const KEEP_COOKIES = [RELOAD_COUNT_COOKIE, 'locale'];
/** Kept through a reset: preferences, the guest wishlist and the privacy choice, which no server error can invalidate. */
const KEEP_LOCAL = ['meshfront:theme', 'meshfront:wishlist', CONSENT_STORAGE_KEY];
const RESET_MARK = 'meshfront:session-reset-at';
/** The engine's token lifetime (48 h); a fresh token arrives with every session start. */
const TOKEN_MAX_AGE = 48 * 60 * 60;
const YEAR = 365 * 24 * 60 * 60;

export type TokenStorage = 'cookie' | 'localStorage';

function configuredStorage(): TokenStorage {
  const env = (import.meta as { env?: Record<string, string | undefined> }).env;
  return env?.PUBLIC_SESSION_TOKEN_STORAGE === 'localStorage' ? 'localStorage' : 'cookie';
}

let tokenStorage: TokenStorage = configuredStorage();
/** Tokens are also kept in memory: storage can be disabled, and reads happen on every request. */
let sessionToken: string | null | undefined;
let authToken: string | null | undefined;
let refreshToken: string | null | undefined;

function load(cookie: string, key: string): string | null {
  return tokenStorage === 'cookie' ? readCookie(cookie) : readLocal(key);
}

function save(cookie: string, key: string, value: string | null, maxAge: number): void {
  if (tokenStorage === 'cookie') {
    if (value) writeCookie(cookie, value, maxAge);
    else deleteCookie(cookie);
  } else {
    writeLocal(key, value);
  }
}

export function getSessionToken(): string | null {
  if (sessionToken === undefined) sessionToken = load(SESSION_COOKIE, SESSION_STORAGE_KEY);
  return sessionToken;
}

export function setSessionToken(token: string | null): void {
  const clean = token?.trim() || null;
  sessionToken = clean;
  save(SESSION_COOKIE, SESSION_STORAGE_KEY, clean, TOKEN_MAX_AGE);
}

export function getAuthToken(): string | null {
  // Re-read a token that is due: another tab may have stored a fresh one.
  if (authToken === undefined || (authToken && needsRefresh(authToken, Date.now(), 0)))
    authToken = load(AUTH_COOKIE, AUTH_STORAGE_KEY);
  return authToken;
}

/** The refresh token as stored now (not cached: tabs rotate it). */
export function getRefreshToken(): string | null {
  const stored = load(REFRESH_COOKIE, REFRESH_STORAGE_KEY);
  // Storage can be unavailable (privacy settings): then the login lives in memory for this page.
  return stored ?? refreshToken ?? null;
}

/**
 * Stores a login's tokens (login, registration, refresh), or forgets them all with null. The auth
 * cookie lives as long as the token; the refresh cookie as long as the engine says.
 */
export function setLoginTokens(
  tokens: { authToken: string | null; refreshToken?: string | null; refreshTokenExpiration?: string | null } | null,
): void {
  const now = Date.now();
  const authAge = tokens?.authToken ? secondsUntil(tokenExpiry(tokens.authToken), now) : null;
  setAuthToken(tokens?.authToken ?? null, authAge ?? 300);
  if (!tokens) {
    refreshToken = null;
    save(REFRESH_COOKIE, REFRESH_STORAGE_KEY, null, 0);
    authRefresher.cancel();
    return;
  }
  if (tokens.refreshToken) {
    refreshToken = tokens.refreshToken;
    save(
      REFRESH_COOKIE,
      REFRESH_STORAGE_KEY,
      tokens.refreshToken,
      secondsUntil(tokens.refreshTokenExpiration, now) ?? REFRESH_MAX_AGE,
    );
  }
  authRefresher.schedule();
}

/**
 * Refreshes the auth token with the refresh token when it is due (see auth-refresh.ts). When the engine
 * says the login is over, the shopper is logged out here (tokens, viewer and customer forgotten).
 */
export const authRefresher = createAuthRefresher({
  readAuthToken: () => load(AUTH_COOKIE, AUTH_STORAGE_KEY) ?? authToken ?? null,
  readRefreshToken: getRefreshToken,
  storeTokens: (tokens) => setLoginTokens(tokens),
  refresh: async (presented) => {
    // No Bearer on this call: the token being replaced is expired or about to be. No session token
    // either: without a valid login the engine would answer with a guest session, not this shopper's.
    authToken = null;
    const result = await request('refreshToken', { refreshToken: presented }, { withSession: false });
    return result.refreshToken;
  },
  onLoginLost: () => {
    setLoginTokens(null);
    setViewer(null);
    setCustomer(null);
  },
});

/** The login flow stores its Bearer token here (expiry in seconds from now; default 5 minutes). */
export function setAuthToken(token: string | null, maxAgeSeconds = 300): void {
  authToken = token?.trim() || null;
  save(AUTH_COOKIE, AUTH_STORAGE_KEY, authToken, maxAgeSeconds);
}

/** For tests and for a setting change at run time. */
export function useTokenStorage(storage: TokenStorage): void {
  tokenStorage = storage;
  sessionToken = undefined;
  authToken = undefined;
  refreshToken = undefined;
}

/**
 * Calls that do not refresh the login first: the refresh itself, logout (it names the login by its
 * refresh token, which a refresh would rotate away) and the calls that start a new login.
 */
const NO_REFRESH_FIRST: ReadonlySet<string> = new Set([
  'refreshToken',
  'Logout',
  'login',
  'loginWithProvider',
  'registerCustomer',
]);

configureClient({
  getSessionToken,
  setSessionToken,
  getAuthToken,
  // The engine serves a customer's session only with a valid login: an expired auth token would get the
  // request answered as a new guest's (an empty cart). So every call refreshes a due token first.
  beforeRequest: (operationName) => (NO_REFRESH_FIRST.has(operationName) ? undefined : authRefresher.ensureFresh()),
});

export type SessionStatus = 'idle' | 'loading' | 'ready' | 'error';
export const $sessionStatus = atom<SessionStatus>('idle');

let starting: Promise<void> | null = null;

export function toViewer(viewer: EngineViewer | null, customer: Customer | null): Viewer | null {
  if (!viewer) return null;
  return {
    id: viewer.id,
    databaseId: viewer.databaseId,
    username: viewer.username ?? viewer.email ?? '',
    email: viewer.email ?? customer?.email ?? undefined,
    ...(typeof viewer.emailVerified === 'boolean' ? { emailVerified: viewer.emailVerified } : {}),
    firstName: viewer.firstName ?? customer?.firstName ?? null,
    lastName: viewer.lastName ?? customer?.lastName ?? null,
  };
}

async function loadSession(): Promise<void> {
  $sessionStatus.set('loading');
  try {
    // An expired auth token would make the engine answer as for a guest: refresh it first.
    const auth = await authRefresher.ensureFresh();
    const result = await request('getCart');
    // The engine signs a fresh token on every start; keep it so the session outlives this page.
    const fresh = result.viewer?.wooSessionToken || result.customer?.sessionToken;
    if (fresh) setSessionToken(fresh);
    replaceCart(result.cart);
    setCustomer(result.customer);
    setViewer(toViewer(result.viewer, result.customer));
    // A fresh token the engine no longer accepts (revoked elsewhere, password reset): the login is over.
    if (!result.viewer && (auth === 'fresh' || auth === 'refreshed')) setLoginTokens(null);
    else if (result.viewer) authRefresher.schedule();
    setPaymentGateways(result.paymentGateways?.nodes);
    setLoginClients(result.loginClients);
    $sessionStatus.set('ready');
  } catch (error) {
    $sessionStatus.set('error');
    await handleSessionFailure(error);
    throw error;
  }
}

/**
 * Starts the session once per page: later calls (the cart drawer opening, an add to cart) wait for the
 * same start. A failed start can be retried by calling it again.
 */
export function startSession(): Promise<void> {
  if (!starting) {
    starting = loadSession().catch((error) => {
      starting = null;
      throw error;
    });
  }
  return starting;
}

/** Waits for a running start, or starts the session; never throws (actions report their own errors). */
export async function sessionReady(): Promise<void> {
  try {
    await startSession();
  } catch {
    // The failure has been handled (state reset, user told); the caller's own request will go on
    // without a token and the engine starts a new session for it.
  }
}

/** A new getCart after something the cart depends on changed (address, login). */
export function refreshSession(): Promise<void> {
  starting = loadSession().catch((error) => {
    starting = null;
    throw error;
  });
  return starting;
}

/** Drops the session and login tokens and the viewer: a fresh guest session starts on the next request. */
export function forgetSession(): void {
  setSessionToken(null);
  setLoginTokens(null);
  setViewer(null);
  setCustomer(null);
  resetCart();
  resetPaymentGateways();
  starting = null;
}

export interface FailureEnvironment {
  reload: () => void;
  now: () => number;
  /** sessionStorage-like for the reload-loop guard. */
  marks: Pick<Storage, 'getItem' | 'setItem'> | null;
}

function defaultEnvironment(): FailureEnvironment {
  let marks: FailureEnvironment['marks'] = null;
  try {
    marks = globalThis.sessionStorage ?? null;
  } catch {
    marks = null;
  }
  return { reload: () => globalThis.location?.reload(), now: () => Date.now(), marks };
}

/** What the failure led to (for tests and logs). */
export interface FailureOutcome {
  kind: SessionFailure;
  reloaded: boolean;
}

export async function handleSessionFailure(
  error: unknown,
  env: FailureEnvironment = defaultEnvironment(),
): Promise<FailureOutcome> {
  const kind = classifySessionFailure(error);
  resetCart();
  resetPaymentGateways();
  if (kind === 'transient') {
    raiseAlert({ type: 'danger', message: engineMessage(error), timeout: 6000 });
    return { kind, reloaded: false };
  }

  clearCookies(KEEP_COOKIES);
  clearLocal(KEEP_LOCAL);
  sessionToken = null;
  authToken = null;
  refreshToken = null;
  authRefresher.cancel();

  if (kind === 'reset') {
    const last = Number(env.marks?.getItem(RESET_MARK) ?? NaN);
    if (!mayResetReload(Number.isFinite(last) ? last : null, env.now())) return { kind, reloaded: false };
    env.marks?.setItem(RESET_MARK, String(env.now()));
    setViewer(null);
    env.reload();
    return { kind, reloaded: true };
  }

  if (!mayReloadAfterFailure(readCookie(RELOAD_COUNT_COOKIE))) return { kind, reloaded: false };
  writeCookie(RELOAD_COUNT_COOKIE, '1', YEAR);
  // Log out: the stored login may be what the engine refuses.
  setViewer(null);
  setCustomer(null);
  env.reload();
  return { kind, reloaded: true };
}

/** For tests: forget the module's in-memory state. */
export function resetSessionModule(): void {
  starting = null;
  sessionToken = undefined;
  authToken = undefined;
  refreshToken = undefined;
  authRefresher.cancel();
  tokenStorage = configuredStorage();
  $sessionStatus.set('idle');
}
