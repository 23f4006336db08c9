// The admin GraphQL endpoint (store operations) inside the Astro server: see src/server/admin/yoga.ts.
import type { APIRoute } from 'astro';
import { getAdminYoga } from '../../../server/admin/yoga.ts';
import { peerAddressOf, toPlatformResponse } from '../../../server/http/astro-route.ts';

export const prerender = false;

const handle: APIRoute = async (context) => {
  const response = await (await getAdminYoga()).fetch(context.request, { clientAddress: peerAddressOf(context) });
  return toPlatformResponse(response);
};

export const GET = handle;
export const POST = handle;
