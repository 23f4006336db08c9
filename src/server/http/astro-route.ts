/**
 * What the Astro GraphQL routes (src/pages/graphql.ts, src/pages/api/admin/graphql.ts) need around Yoga:
 * the TCP peer for per-IP rate limits, and Yoga's answer as the platform's Response.
 */
import type { APIContext } from 'astro';

/** The TCP peer (login, registration and password-reset rate limits), or undefined where Astro has none. */
export function peerAddressOf(context: APIContext): string | undefined {
  // Astro's getter throws when the adapter knows no client address (e.g. prerendering).
  try {
    return context.clientAddress;
  } catch {
    return undefined;
  }
}

/**
 * In Node, Yoga answers with @whatwg-node's own Response class, which Astro refuses
 * ("EndpointDidNotReturnAResponse"). GraphQL answers here are small single payloads (no
 * subscriptions or @defer), so copying the bytes into the platform's Response is cheap.
 */
export async function toPlatformResponse(response: Response): Promise<Response> {
  if (response.constructor === Response) return response;
  return new Response(response.status === 204 || response.status === 304 ? null : await response.arrayBuffer(), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
