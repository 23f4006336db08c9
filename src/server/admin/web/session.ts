/**
 * How a shop manager's login is carried on the server-rendered /admin pages.
 *
 * The admin pages are rendered on the server and post plain HTML forms (no JavaScript), so the browser
 * itself must send the login with every navigation and form post: a cookie. `meshfront_admin` holds the
 * login the engine's auth service issued (the storefront's own login: a 5-minute auth token and its
 * rotating refresh token), and is
 *  - HttpOnly: no script on any page can read it, so an injected script cannot steal the login;
 *  - SameSite=Strict: another site can make the browser send it neither with a form post (CSRF) nor with
 *    a link; as a second line, src/middleware.ts refuses cross-site form posts on every on-demand route
 *    (src/lib/http/origin-check.ts), and every admin state change is a POST;
 *  - Path=/admin: the storefront, its /graphql and its islands never see it;
 *  - Secure when the request came over HTTPS (scripts/serve.mjs adds it behind a trusted proxy too);
 *  - Max-Age 12 h: an operator logs in once a working day; the refresh token would allow 30 days.
 *
 * Every request is checked through the engine's auth service (signature, expiry, a revoked login, the
 * user's token version) and the shop-manager role is read from the database each time, so a demotion or
 * "log out everywhere" locks the admin out at once. Only a shop manager's password login gets a cookie:
 * a customer's correct password is refused before any token is issued.
 *
 * The auth token expires after 5 minutes; the next request renews it with the refresh token. A refresh
 * token presented twice ends the login (a stolen copy), and a page can send several requests with the
 * same cookie at once (two tabs, link prefetching): renewals of one refresh token are therefore shared
 * in this process and remembered for a short grace period, so parallel requests all get the one new
 * pair. (With several API processes behind a balancer, a rare race across processes logs the operator
 * out; they log in again. Nothing the next process needs is kept here.)
 */
import crypto from 'node:crypto';
import type { CustomerRow } from '../../customers/service.ts';
import { AccountError } from '../../customers/service.ts';
import { isShopManager } from '../../customers/operator.ts';
import type { Engine } from '../../engine/index.ts';
import { UNKNOWN_USERNAME, WRONG_PASSWORD, type LoginTokens } from '../../auth/service.ts';

export const ADMIN_COOKIE = 'meshfront_admin';
export const ADMIN_COOKIE_PATH = '/admin';
export const ADMIN_SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

export const NOT_A_MANAGER = 'This account cannot use the shop admin. Log in with a shop manager’s account.';
export const BAD_LOGIN = 'The username or password is wrong.';
export const SESSION_ENDED = 'Your admin session has ended. Please log in again.';

export type AdminViewer = Pick<CustomerRow, 'id' | 'username' | 'email' | 'displayName'>;

export type AdminSession = {
  viewer: AdminViewer;
  /** The auth token to send to the admin endpoint (Bearer). */
  authToken: string;
  /** The login id, for logging out. */
  sid: string | null;
  /** Set-Cookie to send when the tokens were renewed during this request. */
  setCookie: string | null;
};

/** Why there is no session: nothing presented, or a login that no longer works (the cookie is cleared). */
export type NoSession = { viewer: null; reason: 'none' | 'ended' | 'not-manager'; setCookie: string | null };

type CookieParts = { authToken: string; refreshToken: string };

/** The value is `<auth token>~<refresh token>`: both are base64url/JWT text, neither contains `~`. */
export function encodeSessionCookie(tokens: CookieParts, https: boolean): string {
  return `${ADMIN_COOKIE}=${tokens.authToken}~${tokens.refreshToken}; Path=${ADMIN_COOKIE_PATH}; Max-Age=${ADMIN_SESSION_MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict${https ? '; Secure' : ''}`;
}

export function clearSessionCookie(https: boolean): string {
  return `${ADMIN_COOKIE}=; Path=${ADMIN_COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Strict${https ? '; Secure' : ''}`;
}

const TOKEN = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+){2}$/;
const REFRESH = /^[A-Za-z0-9_-]{20,200}$/;

/** The admin cookie's tokens from a Cookie header, or null when absent or malformed. */
export function readSessionCookie(cookieHeader: string | null): CookieParts | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== ADMIN_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (value.length > 4000) return null;
    const [authToken = '', refreshToken = '', ...rest] = value.split('~');
    if (rest.length || !TOKEN.test(authToken) || !REFRESH.test(refreshToken)) return null;
    return { authToken, refreshToken };
  }
  return null;
}

const viewerOf = (u: CustomerRow): AdminViewer => ({
  id: u.id,
  username: u.username,
  email: u.email,
  displayName: u.displayName,
});

/** Renewals in flight or just done, by the hash of the refresh token they used (see the header comment). */
const RENEWAL_GRACE_MS = 30_000;
const renewals = new Map<string, { at: number; result: Promise<(LoginTokens & { user: CustomerRow }) | null> }>();

function renewOnce(engine: Engine, refreshToken: string) {
  const key = crypto.createHash('sha256').update(refreshToken).digest('base64url');
  const now = Date.now();
  for (const [k, r] of renewals) if (now - r.at > RENEWAL_GRACE_MS) renewals.delete(k);
  let entry = renewals.get(key);
  if (!entry) {
    entry = { at: now, result: engine.accounts.auth.refresh(refreshToken).catch(() => null) };
    renewals.set(key, entry);
  }
  return entry.result;
}

/**
 * The shop manager a request's admin cookie names, renewing an expired auth token; otherwise why not
 * (with a Set-Cookie that clears a cookie that no longer works).
 */
export async function readAdminSession(
  engine: Engine,
  cookieHeader: string | null,
  clientIp: string,
  https: boolean,
): Promise<AdminSession | NoSession> {
  const tokens = readSessionCookie(cookieHeader);
  const hadCookie = !!cookieHeader && cookieHeader.includes(`${ADMIN_COOKIE}=`);
  if (!tokens)
    return {
      viewer: null,
      reason: hadCookie ? 'ended' : 'none',
      setCookie: hadCookie ? clearSessionCookie(https) : null,
    };
  const auth = await engine.accounts.auth.authenticate(`Bearer ${tokens.authToken}`, clientIp);
  if (auth.viewer) {
    if (!isShopManager(auth.viewer))
      return { viewer: null, reason: 'not-manager', setCookie: clearSessionCookie(https) };
    return { viewer: viewerOf(auth.viewer), authToken: tokens.authToken, sid: auth.sid, setCookie: null };
  }
  // Expired (or otherwise refused) auth token: the refresh token decides; a revoked login refuses it too.
  const renewed = await renewOnce(engine, tokens.refreshToken);
  if (!renewed) return { viewer: null, reason: 'ended', setCookie: clearSessionCookie(https) };
  if (!isShopManager(renewed.user)) {
    await engine.accounts.auth.revokeSession(renewed.sid);
    return { viewer: null, reason: 'not-manager', setCookie: clearSessionCookie(https) };
  }
  return {
    viewer: viewerOf(renewed.user),
    authToken: renewed.authToken,
    sid: renewed.sid,
    setCookie: encodeSessionCookie(renewed, https),
  };
}

export type LoginOutcome = { ok: true; setCookie: string; viewer: AdminViewer } | { ok: false; error: string };

/**
 * A shop manager's password login (rate-limited per address and account by the auth service). A wrong
 * name and a wrong password get the same answer; an account that is not a shop manager is refused
 * before any token exists.
 */
export async function adminLogin(
  engine: Engine,
  input: { username: string; password: string },
  clientIp: string,
  https: boolean,
): Promise<LoginOutcome> {
  const username = input.username.trim();
  if (!username || !input.password) return { ok: false, error: 'Enter your username (or e-mail) and password.' };
  let user: CustomerRow;
  try {
    user = await engine.accounts.auth.login(username, input.password, clientIp);
  } catch (err) {
    if (err instanceof AccountError) {
      if (err.message === UNKNOWN_USERNAME || err.message === WRONG_PASSWORD) return { ok: false, error: BAD_LOGIN };
      return { ok: false, error: err.message };
    }
    throw err;
  }
  if (!isShopManager(user)) return { ok: false, error: NOT_A_MANAGER };
  const tokens = await engine.accounts.auth.issueTokens(user);
  return { ok: true, setCookie: encodeSessionCookie(tokens, https), viewer: viewerOf(user) };
}

/** Ends the login behind the cookie (its refresh token stops working, its auth tokens are refused). */
export async function adminLogout(
  engine: Engine,
  cookieHeader: string | null,
  clientIp: string,
  https: boolean,
): Promise<string> {
  const tokens = readSessionCookie(cookieHeader);
  if (tokens) {
    const auth = await engine.accounts.auth.authenticate(`Bearer ${tokens.authToken}`, clientIp);
    if (auth.sid) await engine.accounts.auth.revokeSession(auth.sid);
    else await engine.accounts.auth.revokeByRefreshToken(tokens.refreshToken);
  }
  return clearSessionCookie(https);
}
