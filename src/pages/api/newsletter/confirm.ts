// GET /api/newsletter/confirm?token=… — the link in the confirmation mail (see src/server/newsletter/http.ts).
import type { APIRoute } from 'astro';
import { handleConfirm, newsletterPage } from '../../../server/newsletter/index.ts';
import { getEngine } from '../../../server/engine/index.ts';
import { socketAddress } from '../../../server/rate-limit/astro.ts';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const deps = await getEngine()
    .then((engine) => engine.newsletter())
    .catch((err) => {
      console.error('[meshfront] newsletter unavailable:', err);
      return null;
    });
  if (!deps) return new Response(null, { status: 303, headers: { location: newsletterPage(null, 'invalid') } });
  return handleConfirm(context.request, { socketAddress: socketAddress(context) }, deps);
};
