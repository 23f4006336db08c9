/**
 * CORS_ORIGINS: the origins of storefronts on other sites that may call the API with credentials and show
 * the shop's media. The engine (src/server/config.ts) and the media routes (src/pages/media/) read it with
 * the same rules.
 *
 * Imported by the engine and the site server: keep to erasable TypeScript.
 */

/** The listed origins; unset means none in production and the local dev servers otherwise. */
export function parseCorsOrigins(raw: string | undefined, isProduction: boolean): string[] {
  return (raw || (isProduction ? '' : 'http://localhost:4321,http://localhost:4000'))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Headers of a media response (/media/catalog/…, /media/uploads/…). The site sends
 * `Cross-Origin-Resource-Policy: same-site` with everything, which keeps a storefront on another site from
 * showing the shop's images. An image request without CORS carries no Origin, so the policy cannot name the
 * one site allowed: with CORS origins configured, media (public catalog images) are `cross-origin`, and a
 * CORS request (`<img crossorigin>`, fetch) from a listed origin also gets Access-Control-Allow-Origin.
 */
export function mediaCorsHeaders(origin: string | null, corsOrigins: readonly string[]): Record<string, string> {
  if (!corsOrigins.length) return {};
  const headers: Record<string, string> = { 'Cross-Origin-Resource-Policy': 'cross-origin', Vary: 'Origin' };
  if (origin && corsOrigins.includes(origin)) headers['Access-Control-Allow-Origin'] = origin;
  return headers;
}

/** mediaCorsHeaders with CORS_ORIGINS and NODE_ENV from the environment (the engine defaults to production). */
export function mediaCorsHeadersFromEnv(
  origin: string | null,
  env: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const isProduction = (env.NODE_ENV || 'production') === 'production';
  return mediaCorsHeaders(origin, parseCorsOrigins(env.CORS_ORIGINS, isProduction));
}
