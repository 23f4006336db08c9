// POST /api/newsletter/subscribe — double opt-in sign-up (see src/server/newsletter/http.ts).
import type { APIRoute } from 'astro';
import { handleSubscribe } from '../../../server/newsletter/index.ts';
import { getEngine } from '../../../server/engine/index.ts';
import { socketAddress } from '../../../server/rate-limit/astro.ts';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const deps = await getEngine()
    .then((engine) => engine.newsletter())
    .catch((err) => {
      console.error('[meshfront] newsletter unavailable:', err);
      return null;
    });
  if (!deps)
    return new Response(JSON.stringify({ message: 'Something went wrong' }), {
      status: 500,
      headers: { 'content-type': 'application/json' },
    });
  return handleSubscribe(context.request, { socketAddress: socketAddress(context) }, deps);
};
