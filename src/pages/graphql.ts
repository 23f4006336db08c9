// The commerce engine's GraphQL endpoint inside the Astro server (see src/server/http/yoga.ts).
import type { APIRoute } from 'astro';
import { getYoga } from '../server/http/yoga.ts';

export const prerender = false;

const handle: APIRoute = (context) => {
  // The TCP peer, for per-IP rate limits (login, registration, password reset).
  let clientAddress: string | undefined;
  try {
    clientAddress = context.clientAddress;
  } catch {
    clientAddress = undefined;
  }
  return getYoga().fetch(context.request, { clientAddress });
};

export const GET = handle;
export const POST = handle;
export const OPTIONS = handle;
