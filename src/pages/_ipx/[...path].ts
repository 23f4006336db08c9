import type { APIRoute } from 'astro';
import { handleIpxRequest } from '../../lib/image/serve.ts';

/**
 * Request-time image variants: /_ipx/{modifiers}/{path}, e.g. /_ipx/w_640&f_webp/media/catalog/gateway.png
 * Astro does not route '_'-prefixed folders: src/lib/image/astro-integration.ts injects this route.
 */
export const prerender = false;

export const GET: APIRoute = ({ request }) => {
  // Read the raw path rather than params.path: the decoding of each segment happens in one place.
  const { pathname } = new URL(request.url);
  const rest = pathname.replace(/^\/_ipx\/?/, '');
  return handleIpxRequest(rest, request.headers.get('accept'));
};
