// Serves the built site (static pages, API routes, the GraphQL endpoint) from one Node process.
// The Astro node adapter's handler does the serving; this wrapper adds what must happen before a
// static file is chosen (locale negotiation, redirect rules, security headers), because Astro
// middleware does not run for prerendered pages. Unknown paths under a locale prefix get that
// locale's 404 page with status 404.
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

process.env.ASTRO_NODE_AUTOSTART = 'disabled';

// MESHFRONT_DIST_DIR serves a build made elsewhere (astro build --outDir …), e.g. for isolated test runs.
export async function createSiteServer({ distDir = path.resolve(process.env.MESHFRONT_DIST_DIR ?? 'dist') } = {}) {
  const entry = await import(pathToFileURL(path.join(distDir, 'server', 'entry.mjs')).href);
  const { beforeAstro } = await import('../src/lib/http/site-rules.ts');
  const clientDir = path.join(distDir, 'client');
  const server = http.createServer(async (req, res) => {
    try {
      if (await beforeAstro(req, res, { clientDir })) return;
      entry.handler(req, res);
    } catch (err) {
      console.error('[serve] request failed', err);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal Server Error');
    }
  });
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 4321);
  const host = process.env.HOST ?? '0.0.0.0';
  const server = await createSiteServer();
  server.listen(port, host, () => console.log(`Meshfront is serving on http://localhost:${port}`));
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
