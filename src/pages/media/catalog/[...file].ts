import type { APIRoute } from 'astro';
import { handleOriginalRequest, withMediaCors } from '../../../lib/image/serve.ts';

/** Original catalog images from content/catalog/images/, e.g. /media/catalog/gateway.svg */
export const prerender = false;

// Storefronts on the sites CORS_ORIGINS lists may show these images (withMediaCors).
export const GET: APIRoute = async ({ request }) => {
  const { pathname } = new URL(request.url);
  return withMediaCors(await handleOriginalRequest(pathname), request.headers.get('origin'));
};
