// GET /api/altcha/challenge — a challenge for the contact form's ALTCHA widget (see src/server/bot-check/http.ts).
import type { APIRoute } from 'astro';
import { handleAltchaChallenge } from '../../../server/bot-check/index.ts';
import { getEngine } from '../../../server/engine/index.ts';
import { socketAddress } from '../../../server/rate-limit/astro.ts';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const deps = await getEngine()
    .then((engine) => engine.contact())
    .catch((err) => {
      console.error('[meshfront] bot check unavailable:', err);
      return null;
    });
  if (!deps)
    return new Response(JSON.stringify({ message: 'Something went wrong' }), {
      status: 500,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  return handleAltchaChallenge(context.request, { socketAddress: socketAddress(context) }, deps);
};

export const ALL: APIRoute = () =>
  new Response(JSON.stringify({ message: 'Use GET.' }), {
    status: 405,
    headers: { 'content-type': 'application/json', allow: 'GET' },
  });
