/**
 * POST /api/stripe/webhook: hands the raw body and the Stripe-Signature header to the engine's Stripe
 * webhook handler (signature check, de-duplication, order updates) and answers Stripe with its status.
 */
import type { Engine } from '../engine/index.ts';

export function createStripeWebhookRoute(engine: () => Promise<Engine>): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'POST')
      return new Response(JSON.stringify({ error: 'Method not allowed' }), {
        status: 405,
        headers: { allow: 'POST', 'content-type': 'application/json' },
      });
    const length = Number(request.headers.get('content-length') ?? 0);
    if (length > 512 * 1024)
      return new Response(JSON.stringify({ error: 'Payload too large' }), {
        status: 413,
        headers: { 'content-type': 'application/json' },
      });
    // The signature covers the exact bytes: read them untouched, never parse and re-serialise.
    const raw = Buffer.from(await request.arrayBuffer());
    const e = await engine();
    const answer = await e.stripeWebhooks.handle(raw, request.headers.get('stripe-signature'));
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  };
}
