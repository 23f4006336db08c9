// Readiness for load balancers (src/server/http/health.ts): the database answers and the migrations are
// applied. In the server bundle, so the site server (scripts/serve.mjs) answers GET /ready through this
// route, on the engine the pages use.
import type { APIRoute } from 'astro';
import { getEngine } from '../../server/engine/index.ts';
import { readyResponse } from '../../server/http/health.ts';

export const prerender = false;

export const GET: APIRoute = () => readyResponse(getEngine);
export const HEAD = GET;
