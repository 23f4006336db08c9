/**
 * Cross-site form-submission guard (CSRF) for on-demand routes — Astro's `security.checkOrigin` rule,
 * owned here so that one route can be exempt: RFC 8058 one-click unsubscribe, where a mailbox provider's
 * server POSTs `List-Unsubscribe=One-Click` without an Origin header. That route is authorised by the
 * unguessable token in its URL instead, so a forged cross-site POST can only unsubscribe the holder of
 * the link — exactly what the link is for.
 *
 * The rule (same as Astro's): unsafe methods whose content type a plain HTML form can send (or no content
 * type at all) must carry an Origin equal to the request's own origin. JSON requests (GraphQL, the Stripe
 * webhook) cannot be sent cross-site without a CORS preflight, so they pass.
 */
const FORM_CONTENT_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Paths (without locale prefix; exact match) that authenticate by a token in the URL instead of by origin. */
export const ORIGIN_CHECK_EXEMPT_PATHS = new Set(['/api/newsletter/unsubscribe']);

export function isForbiddenCrossSiteRequest(request: Request, url: URL): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  if (ORIGIN_CHECK_EXEMPT_PATHS.has(url.pathname.replace(/\/+$/, ''))) return false;
  const sameOrigin = request.headers.get('origin') === url.origin;
  const contentType = request.headers.get('content-type');
  if (contentType !== null) {
    const lower = contentType.toLowerCase();
    return FORM_CONTENT_TYPES.some((t) => lower.includes(t)) && !sameOrigin;
  }
  return !sameOrigin;
}

export function crossSiteForbiddenResponse(request: Request): Response {
  return new Response(`Cross-site ${request.method} form submissions are forbidden`, {
    status: 403,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
}
