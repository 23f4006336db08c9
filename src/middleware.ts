/**
 * Middleware for on-demand routes (prebuilt pages never pass through it).
 * - The cross-site form guard replaces Astro's built-in `security.checkOrigin` (turned off in
 *   astro.config.mjs) so that RFC 8058 one-click unsubscribe can reach its route; see
 *   src/lib/http/origin-check.ts.
 */
import { defineMiddleware, sequence } from 'astro:middleware';
import { crossSiteForbiddenResponse, isForbiddenCrossSiteRequest } from './lib/http/origin-check';

const originCheck = defineMiddleware((context, next) => {
  if (!context.isPrerendered && isForbiddenCrossSiteRequest(context.request, context.url)) {
    return crossSiteForbiddenResponse(context.request);
  }
  return next();
});

export const onRequest = sequence(originCheck);
