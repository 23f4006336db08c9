// Liveness (src/server/http/health.ts) for the Astro entry served without scripts/serve.mjs in front
// (which answers GET /health itself).
import type { APIRoute } from 'astro';
import { healthResponse } from '../../server/http/health.ts';

export const prerender = false;

export const GET: APIRoute = () => healthResponse();
export const HEAD = GET;
