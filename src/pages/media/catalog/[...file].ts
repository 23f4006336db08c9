import type { APIRoute } from 'astro';
import { handleOriginalRequest } from '../../../lib/image/serve.ts';

/** Original catalog images from content/catalog/images/, e.g. /media/catalog/gateway.svg */
export const prerender = false;

export const GET: APIRoute = ({ request }) => {
  const { pathname } = new URL(request.url);
  return handleOriginalRequest(pathname);
};
