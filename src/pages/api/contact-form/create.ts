// POST /api/contact-form/create — the contact form (see src/server/contact/http.ts).
import type { APIRoute } from 'astro';
import { getContactHandlerDeps, handleContactRequest } from '../../../server/contact/index.ts';
import { socketAddress } from '../../../server/rate-limit/astro.ts';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const deps = await getContactHandlerDeps().catch((err) => {
    console.error('[meshfront] contact form unavailable:', err);
    return null;
  });
  if (!deps) return new Response(JSON.stringify({ message: 'Something went wrong' }), { status: 500, headers: { 'content-type': 'application/json' } });
  return handleContactRequest(context.request, { socketAddress: socketAddress(context) }, deps);
};

export const ALL: APIRoute = () =>
  new Response(JSON.stringify({ message: 'Use POST.' }), { status: 405, headers: { 'content-type': 'application/json', allow: 'POST' } });
