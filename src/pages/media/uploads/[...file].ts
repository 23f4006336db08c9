import type { APIRoute } from 'astro';
import { handleOriginalRequest, withMediaCors } from '../../../lib/image/serve.ts';

/** Original images uploaded at run time, from var/uploads/, e.g. /media/uploads/avatar-12.png */
export const prerender = false;

// Storefronts on the sites CORS_ORIGINS lists may show these images (withMediaCors).
export const GET: APIRoute = async ({ request }) =>
  withMediaCors(await handleOriginalRequest(new URL(request.url).pathname), request.headers.get('origin'));
