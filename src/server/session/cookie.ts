/**
 * The `woocommerce-session` cookie: the same session token the response header carries, for clients on
 * the shop's own site that keep no token themselves. A WooGraphQL storefront that never reads response
 * headers (its first `addToCart` goes out without a session) keeps its cart through this cookie, as
 * WooGraphQL's own session cookie does for same-site clients. A request that sends the header is served
 * by the header; the cookie only stands in when there is none.
 *
 * It is the cookie Meshfront's own storefront keeps its token in (src/stores/session.ts): same name, path
 * and attributes, so either side can renew or delete it. That is also why it is not HttpOnly — the
 * storefront's script reads and clears it (the token is script-readable there anyway); the servers add
 * `Secure` to every cookie sent over HTTPS (src/lib/http/node-hardening.ts), as the storefront does.
 *
 * A session a browser sends by itself must not be usable from another site's page (cross-site request
 * forgery): the cookie is `SameSite=Lax` (no cross-site POST carries it), and it counts only on a GET
 * (queries only: Yoga refuses mutations over GET) or a JSON POST — a content type no HTML form can send,
 * and one a cross-origin page can send only after a CORS preflight the shop answers for its configured
 * origins alone.
 */
/** Named as the header (and as WooGraphQL's clients expect). */
export const SESSION_COOKIE = 'woocommerce-session';

export type SessionCookieSettings = {
  /** The cookie's lifetime: the token's own. */
  maxAgeSeconds: number;
};

type HeaderOf = (name: string) => string | null | undefined;

/** The value of cookie `name` in a Cookie header, or null. */
function cookieValue(cookieHeader: string | null | undefined, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/**
 * The session a request presents, as a `woocommerce-session` header value: the header itself, otherwise
 * the cookie on a GET or a JSON POST (see above); null when there is neither.
 */
export function presentedSession(method: string | undefined, header: HeaderOf, cookieEnabled: boolean): string | null {
  const sent = header(SESSION_COOKIE);
  if (sent) return sent;
  if (!cookieEnabled) return null;
  const json = method === 'POST' && /^application\/(graphql-response\+)?json\b/i.test(header('content-type') ?? '');
  if (method !== 'GET' && !json) return null;
  const token = cookieValue(header('cookie'), SESSION_COOKIE);
  // A JWT's characters only: anything else is not a token this engine issued.
  return token && /^[\w.-]{1,2048}$/.test(token) ? `Session ${token}` : null;
}

/** The Set-Cookie value that hands `token` to the browser. */
export function sessionCookie(token: string, settings: SessionCookieSettings): string {
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${settings.maxAgeSeconds}; SameSite=Lax`;
}

/**
 * The response headers that hand a new or changed session to the client: the `woocommerce-session` header
 * always, the cookie when the shop sets one. Yoga's answers and the catalog fast path's stored ones both
 * send these.
 */
export function issuedSessionHeaders(token: string, settings: SessionCookieSettings | null): Record<string, string> {
  return settings
    ? { [SESSION_COOKIE]: token, 'set-cookie': sessionCookie(token, settings) }
    : { [SESSION_COOKIE]: token };
}
