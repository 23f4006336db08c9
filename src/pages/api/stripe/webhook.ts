// Stripe's webhook endpoint (configure https://<shop>/api/stripe/webhook in the Stripe dashboard with
// payment_intent.succeeded, payment_intent.payment_failed and charge.refunded; its secret is STRIPE_WEBHOOK_SECRET).
import type { APIRoute } from 'astro';
import { getEngine } from '../../../server/engine/index.ts';
import { createStripeWebhookRoute } from '../../../server/http/stripe-webhook.ts';

export const prerender = false;

const route = createStripeWebhookRoute(getEngine);

export const POST: APIRoute = ({ request }) => route(request);
