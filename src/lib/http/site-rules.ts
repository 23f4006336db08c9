import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Rules applied to every request before the Astro handler serves it.
 * Returns true when the response has been sent.
 */
export async function beforeAstro(_req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  return false;
}
