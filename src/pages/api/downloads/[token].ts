// A customer's download (signed, short-lived link from customer.downloadableItems): see src/server/downloads/http.ts.
import type { APIRoute } from 'astro';
import { getEngine } from '../../../server/engine/index.ts';
import { handleDownloadRequest } from '../../../server/downloads/http.ts';

export const prerender = false;

export const GET: APIRoute = async ({ request, params }) =>
  handleDownloadRequest(request, params.token ?? '', (await getEngine()).accounts.downloads);
export const HEAD = GET;
