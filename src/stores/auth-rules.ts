/**
 * Pure rules for the login's tokens (no storage, no network): when an auth token is due for a refresh,
 * when to schedule that, and which engine errors mean "the auth token was refused". The engine's auth
 * token lives 300 s by default (AUTH_TOKEN_TTL_SECONDS); it is refreshed a minute before it runs out.
 * tests/unit/account-tokens.test.ts covers them.
 */

/** Refresh this long before the auth token expires (clock skew, a slow request on a phone). */
export const REFRESH_MARGIN_SECONDS = 60;

/** Never schedule a refresh sooner than this (a token that is already due is refreshed on use). */
const MIN_DELAY_MS = 5_000;

function base64UrlDecode(segment: string): string | null {
  try {
    const normalized = segment.replace(/-/g, '+').replace(/_/g, '/');
    const padded = normalized + '='.repeat((4 - (normalized.length % 4)) % 4);
    if (typeof atob === 'function') {
      const binary = atob(padded);
      const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
      return new TextDecoder().decode(bytes);
    }
    return null;
  } catch {
    return null;
  }
}

/**
 * The `exp` claim (Unix seconds) of a JWT, read without verifying it: the browser only needs to know
 * when to ask for a new one; the engine checks the signature. Null for anything that is not a JWT with
 * a numeric exp.
 */
export function tokenExpiry(jwt: string | null | undefined): number | null {
  if (!jwt) return null;
  const parts = jwt.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  const json = base64UrlDecode(parts[1]);
  if (!json) return null;
  try {
    const claims = JSON.parse(json) as { exp?: unknown };
    return typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? claims.exp : null;
  } catch {
    return null;
  }
}

/** True when the token is missing, unreadable, or expires within `marginSeconds` of `nowMs`. */
export function needsRefresh(
  authToken: string | null | undefined,
  nowMs: number,
  marginSeconds = REFRESH_MARGIN_SECONDS,
): boolean {
  const exp = tokenExpiry(authToken);
  if (exp === null) return true;
  return exp * 1000 - marginSeconds * 1000 <= nowMs;
}

/** How long to wait before refreshing the token (null when there is no readable token). */
export function refreshDelayMs(
  authToken: string | null | undefined,
  nowMs: number,
  marginSeconds = REFRESH_MARGIN_SECONDS,
): number | null {
  const exp = tokenExpiry(authToken);
  if (exp === null) return null;
  return Math.max(MIN_DELAY_MS, exp * 1000 - marginSeconds * 1000 - nowMs);
}

/** Seconds from now until a Unix-seconds expiration (as the engine sends it, a string); null if unreadable. */
export function secondsUntil(expiration: string | number | null | undefined, nowMs: number): number | null {
  if (expiration === null || expiration === undefined || expiration === '') return null;
  const value = typeof expiration === 'number' ? expiration : Number(expiration);
  if (!Number.isFinite(value)) return null;
  return Math.max(0, Math.floor(value - nowMs / 1000));
}

/**
 * The engine's refusals of an `Authorization: Bearer` token (src/server/auth/tokens.ts and service.ts,
 * the JWT plugin's wording): each means "refresh and try again", never "show this to the shopper".
 */
export const AUTH_TOKEN_ERRORS: readonly string[] = [
  'Expired token',
  'Signature verification failed',
  'Wrong number of segments',
  'Invalid token',
  'User ID not found in the token',
  'The User Secret does not match or has been revoked for this user',
  'The user could not be found',
  'You must be logged in to do that.',
];

/** True when an error (or its GraphQL errors) is one of the token refusals above. */
export function isAuthTokenError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const messages: string[] = [];
  if (error instanceof Error) messages.push(error.message);
  const errors = (error as { errors?: unknown }).errors;
  if (Array.isArray(errors)) for (const e of errors) if (typeof e?.message === 'string') messages.push(e.message);
  return messages.some((m) => AUTH_TOKEN_ERRORS.includes(m.trim()));
}
