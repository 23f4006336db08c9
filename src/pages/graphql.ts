// The commerce engine's GraphQL endpoint inside the Astro server (see src/server/http/yoga.ts), behind
// the catalog fast path (src/server/http/fast-path.ts) so hot catalog reads skip Yoga's pipeline here too.
import type { APIRoute } from 'astro';
import { getCatalogFastPath } from '../server/http/fast-path.ts';

export const prerender = false;

const handle: APIRoute = async (context) => {
  // The TCP peer, for per-IP rate limits (login, registration, password reset).
  let clientAddress: string | undefined;
  try {
    clientAddress = context.clientAddress;
  } catch {
    clientAddress = undefined;
  }
  const response: Response = await getCatalogFastPath().handleRequest(context.request, { clientAddress });
  if (response.constructor === Response) return response;
  // In Node, Yoga answers with @whatwg-node's own Response class, which Astro refuses
  // ("EndpointDidNotReturnAResponse"). GraphQL answers here are small single payloads (no
  // subscriptions or @defer), so copying the bytes into the platform's Response is cheap.
  return new Response(response.status === 204 || response.status === 304 ? null : await response.arrayBuffer(), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
};

export const GET = handle;
export const POST = handle;
export const OPTIONS = handle;
