/**
 * Middleware for on-demand routes (prebuilt pages never pass through it).
 * - The cross-site form guard replaces Astro's built-in `security.checkOrigin` (turned off in
 *   astro.config.mjs) so that RFC 8058 one-click unsubscribe can reach its route; see
 *   src/lib/http/origin-check.ts.
 * - Security headers for on-demand responses: the same headers scripts/serve.mjs sets, and for HTML a
 *   Content-Security-Policy carrying the hashes of the inline scripts of the page as rendered (so it also
 *   holds when the Astro entry runs without scripts/serve.mjs in front).
 */
import { defineMiddleware, sequence } from 'astro:middleware';
import { crossSiteForbiddenResponse, isForbiddenCrossSiteRequest } from './lib/http/origin-check';
import { contentSecurityPolicy, inlineScriptHashes } from './lib/http/csp';

const originCheck = defineMiddleware((context, next) => {
  if (!context.isPrerendered && isForbiddenCrossSiteRequest(context.request, context.url)) {
    return crossSiteForbiddenResponse(context.request);
  }
  return next();
});

/** X-Forwarded-Proto counts only when TRUST_PROXY says a proxy of ours is in front. */
function servedOverHttps(request: Request, url: URL): boolean {
  if (url.protocol === 'https:') return true;
  const trust = (process.env.TRUST_PROXY ?? 'false').trim().toLowerCase();
  if (trust === 'false' || trust === '0' || trust === '') return false;
  const hops = (request.headers.get('x-forwarded-proto') ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const index = trust === 'true' ? 0 : Math.max(0, hops.length - Number(trust));
  return hops[index] === 'https';
}

const securityHeaders = defineMiddleware(async (context, next) => {
  const response = await next();
  if (context.isPrerendered) return response;
  const https = servedOverHttps(context.request, context.url);
  const headers = new Headers(response.headers);
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  headers.set('X-Frame-Options', 'SAMEORIGIN');
  const hstsMaxAge = Number(process.env.HSTS_MAX_AGE ?? 31536000);
  if (https && Number.isInteger(hstsMaxAge) && hstsMaxAge > 0)
    headers.set('Strict-Transport-Security', `max-age=${hstsMaxAge}; includeSubDomains`);
  const options = {
    recaptchaScriptUrl: process.env.PUBLIC_RECAPTCHA_SCRIPT_URL,
    apiBase: process.env.PUBLIC_API_BASE,
    https,
  };
  // A route that sets its own policy (e.g. SVG images) keeps it.
  if (headers.has('Content-Security-Policy'))
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  if (!(headers.get('content-type') ?? '').includes('text/html') || !response.body) {
    headers.set('Content-Security-Policy', contentSecurityPolicy(options));
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
  // On-demand pages are small (order pages): read the HTML once to hash its inline scripts.
  const html = await response.text();
  headers.set('Content-Security-Policy', contentSecurityPolicy({ ...options, scriptHashes: inlineScriptHashes(html) }));
  headers.delete('content-length');
  return new Response(html, { status: response.status, statusText: response.statusText, headers });
});

export const onRequest = sequence(originCheck, securityHeaders);
