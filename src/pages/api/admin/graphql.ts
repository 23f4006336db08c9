// The admin GraphQL endpoint (store operations) inside the Astro server: see src/server/admin/yoga.ts.
import type { APIRoute } from 'astro';
import { getAdminYoga } from '../../../server/admin/yoga.ts';

export const prerender = false;

const handle: APIRoute = async (context) => {
  let clientAddress: string | undefined;
  try {
    clientAddress = context.clientAddress;
  } catch {
    clientAddress = undefined;
  }
  const response = await (await getAdminYoga()).fetch(context.request, { clientAddress });
  // Yoga's Response class is not always the platform's, which Astro needs (see src/pages/graphql.ts): copy it.
  return new Response(response.status === 204 || response.status === 304 ? null : await response.arrayBuffer(), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
};

export const GET = handle;
export const POST = handle;
