import type { APIRoute } from 'astro';
import { handleOriginalRequest } from '../../../lib/image/serve.ts';

/** Original images uploaded at run time, from var/uploads/, e.g. /media/uploads/avatar-12.png */
export const prerender = false;

export const GET: APIRoute = ({ request }) => handleOriginalRequest(new URL(request.url).pathname);
