// GET/POST /api/newsletter/unsubscribe?token=… — the welcome mail's link and RFC 8058 one-click
// unsubscribe (see src/server/newsletter/http.ts).
import type { APIRoute } from 'astro';
import { handleUnsubscribeGet, handleUnsubscribePost, newsletterPage } from '../../../server/newsletter/index.ts';
import { getEngine } from '../../../server/engine/index.ts';
import { socketAddress } from '../../../server/rate-limit/astro.ts';

export const prerender = false;

async function deps() {
  return getEngine()
    .then((engine) => engine.newsletter())
    .catch((err) => {
      console.error('[meshfront] newsletter unavailable:', err);
      return null;
    });
}

export const GET: APIRoute = async (context) => {
  const d = await deps();
  if (!d) return new Response(null, { status: 303, headers: { location: newsletterPage(null, 'invalid') } });
  return handleUnsubscribeGet(context.request, { socketAddress: socketAddress(context) }, d);
};

export const POST: APIRoute = async (context) => {
  const d = await deps();
  if (!d) return new Response('Something went wrong', { status: 500 });
  return handleUnsubscribePost(context.request, { socketAddress: socketAddress(context) }, d);
};
