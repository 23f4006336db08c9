// `npm run shop` commands from this machine while the shop runs (src/server/local-control): reached only
// through the site server's loopback control listener (scripts/serve.mjs refuses this path on the public
// one) and only with the token of this process.
import type { APIRoute } from 'astro';
import { getEngine } from '../../../server/engine/index.ts';
import { peerAddressOf } from '../../../server/http/astro-route.ts';
import { handleLocalCommand } from '../../../server/local-control/endpoint.ts';

export const prerender = false;

const handle: APIRoute = (context) => handleLocalCommand(context.request, peerAddressOf(context), getEngine);

export const GET = handle;
export const POST = handle;
