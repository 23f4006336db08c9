// Serves the built site (static pages, API routes, the GraphQL endpoint) from one Node process.
// The Astro node adapter's handler does the serving; this wrapper adds what must happen before a
// static file is chosen (locale negotiation, redirect rules, security headers), because Astro
// middleware does not run for prerendered pages. Unknown paths under a locale prefix get that
// locale's 404 page with status 404. Hardening (src/lib/http/node-hardening.ts, static-csp.ts): every
// response gets the security headers and a Content-Security-Policy with the page's inline-script hashes,
// cookies get Secure over HTTPS, /graphql and /api/* bodies are limited (413), slow clients time out, and
// SIGTERM finishes in-flight requests before the database is closed.
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

process.env.ASTRO_NODE_AUTOSTART = 'disabled';

// MESHFRONT_DIST_DIR serves a build made elsewhere (astro build --outDir …), e.g. for isolated test runs.
// `handler` replaces Astro's handler (tests of the wrapper without a build).
// Published builds (`npm run shop -- publish`, <data dir>/builds/current) take over from distDir when
// they are newer, switched per request without a restart (src/server/publish/site-switch.ts).
/** @param {{ distDir?: string, handler?: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => unknown, env?: Record<string, string | undefined>, buildsDir?: string }} [options] */
export async function createSiteServer({
  distDir = path.resolve(process.env.MESHFRONT_DIST_DIR ?? 'dist'),
  handler = undefined,
  env = process.env,
  buildsDir = undefined,
} = {}) {
  const { beforeAstro } = await import('../src/lib/http/site-rules.ts');
  const hardening = await import('../src/lib/http/node-hardening.ts');
  const { StaticPagePolicies } = await import('../src/lib/http/static-csp.ts');
  const { CompressedStatic } = await import('../src/lib/http/compressed-static.ts');
  const { createBuildSwitch, buildsDirFromEnv } = await import('../src/server/publish/site-switch.ts');
  const settings = hardening.loadHardeningSettings(env);
  // Everything that belongs to one build: its Astro handler, its static files, its pages' script hashes.
  const loadBuild = async (dir) => {
    const clientDir = path.resolve(dir, 'client');
    return {
      astroHandler: handler ?? (await import(pathToFileURL(path.join(dir, 'server', 'entry.mjs')).href)).handler,
      clientDir,
      policies: new StaticPagePolicies(clientDir, {
        recaptchaScriptUrl: env.PUBLIC_RECAPTCHA_SCRIPT_URL,
        apiBase: env.PUBLIC_API_BASE,
      }),
      // Brotli/gzip for prebuilt pages, CSS and JS (Astro's handler sends them uncompressed).
      compressed: new CompressedStatic(clientDir),
    };
  };
  const fixed = handler ? { dir: distDir, value: await loadBuild(distDir) } : null;
  const builds = fixed
    ? { current: async () => fixed, settled: async () => fixed }
    : await createBuildSwitch({ distDir, buildsDir: buildsDir ?? buildsDirFromEnv(env), load: loadBuild });
  const server = http.createServer(hardening.serverOptions(settings), async (req, res) => {
    try {
      const https = hardening.isHttpsRequest(req, settings.trustProxy);
      for (const [name, value] of Object.entries(hardening.baseSecurityHeaders(https, settings)))
        res.setHeader(name, value);
      hardening.hardenCookies(res, https);
      const pathname = new URL(req.url ?? '/', 'http://site.invalid').pathname;
      // One build for the whole request, even if a publish switches builds meanwhile.
      const { clientDir, policies, astroHandler, compressed } = (await builds.current()).value;
      if (!(await hardening.enforceBodyLimit(req, res, hardening.bodyLimitFor(pathname, settings), pathname))) return;
      if (await beforeAstro(req, res, { clientDir })) return;
      // On-demand pages replace this with their own (src/middleware.ts hashes the rendered page).
      res.setHeader('Content-Security-Policy', policies.policyFor(pathname, https));
      if (await compressed.serve(req, res, pathname)) return;
      astroHandler(req, res);
    } catch (err) {
      console.error('[serve] request failed', err);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal Server Error');
    }
  });
  server.builds = builds;
  server.shutdown = hardening.gracefulShutdown(server, {
    graceMs: settings.shutdownGraceMs,
    // The engine lives inside Astro's server bundle; it registers its closer on globalThis (src/server/engine/index.ts).
    close: async () => {
      const closeEngine = globalThis[Symbol.for('meshfront.closeEngine')];
      if (typeof closeEngine === 'function') await closeEngine();
    },
  });
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Served as a shop: production mode unless NODE_ENV says otherwise (src/server/config.ts).
  process.env.NODE_ENV ||= 'production';
  const port = Number(process.env.PORT ?? 4321);
  const host = process.env.HOST ?? '0.0.0.0';
  const server = await createSiteServer();
  server.listen(port, host, () => console.log(`Meshfront is serving on http://localhost:${port}`));
  server.shutdown.install();
}
