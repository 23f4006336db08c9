// The commerce engine's GraphQL endpoint inside the Astro server (see src/server/http/yoga.ts), behind
// the catalog fast path (src/server/http/fast-path.ts) so hot catalog reads skip Yoga's pipeline here too.
import type { APIRoute } from 'astro';
import { peerAddressOf, toPlatformResponse } from '../server/http/astro-route.ts';
import { getCatalogFastPath } from '../server/http/fast-path.ts';

export const prerender = false;

const handle: APIRoute = async (context) => {
  // The TCP peer, for per-IP rate limits (login, registration, password reset).
  const response: Response = await getCatalogFastPath().handleRequest(context.request, {
    clientAddress: peerAddressOf(context),
  });
  return toPlatformResponse(response);
};

export const GET = handle;
export const POST = handle;
export const OPTIONS = handle;
