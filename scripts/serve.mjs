// Serves the built site (static pages, API routes, the GraphQL endpoint) from one Node process.
// The Astro node adapter's handler does the serving; this wrapper adds what must happen before a
// static file is chosen (locale negotiation, redirect rules, security headers), because Astro
// middleware does not run for prerendered pages. Unknown paths under a locale prefix get that
// locale's 404 page with status 404, naming the requested path (src/lib/http/not-found-page.ts).
// Prebuilt pages asked for with a query parameter their canonical URL keeps (/products?page=2) are sent
// with that canonical URL (src/lib/http/canonical-query.ts). Hardening (src/lib/http/node-hardening.ts,
// static-csp.ts): every response gets the security headers and a Content-Security-Policy with the
// page's inline-script hashes, cookies get Secure over HTTPS, /graphql and /api/* bodies are limited
// (413), slow clients time out, and SIGTERM and SIGINT finish in-flight requests before the database is
// closed (a database closed cleanly keeps its sequences: order numbers go on without a gap after a
// restart).
// On the embedded database `serveSite` opens the engine at start — so the shop holds the database's lock
// from then on, and a second process on it stops at once — and takes `npm run shop` commands from this
// machine on a loopback listener of its own (src/server/local-control).
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
  const { CanonicalQuery } = await import('../src/lib/http/canonical-query.ts');
  const { createBuildSwitch, buildsDirFromEnv } = await import('../src/server/publish/site-switch.ts');
  const { LOCAL_COMMAND_PATH } = await import('../src/server/local-control/credential.ts');
  const { answerHealth, readyRoute } = await import('../src/server/http/health.ts');
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
      // Prebuilt pages asked for with a query their canonical URL keeps (/products?page=2).
      canonicalQuery: new CanonicalQuery(clientDir),
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
      // Taken on the loopback control listener only (serveSite).
      if (pathname === LOCAL_COMMAND_PATH) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
        return;
      }
      // One build for the whole request, even if a publish switches builds meanwhile.
      const { clientDir, policies, astroHandler, compressed, canonicalQuery } = (await builds.current()).value;
      // /health here; /ready inside the server bundle, on the engine the pages use (src/pages/api/ready.ts).
      if (await answerHealth(req, res, readyRoute(astroHandler))) return;
      if (!(await hardening.enforceBodyLimit(req, res, hardening.bodyLimitFor(pathname, settings), pathname))) return;
      if (await beforeAstro(req, res, { clientDir })) return;
      // On-demand pages replace this with their own (src/middleware.ts hashes the rendered page).
      res.setHeader('Content-Security-Policy', policies.policyFor(pathname, https));
      if (await canonicalQuery.serve(req, res, req.url ?? '/')) return;
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
      await server.localControl?.close(settings.shutdownGraceMs);
      const closeEngine = globalThis[Symbol.for('meshfront.closeEngine')];
      if (typeof closeEngine === 'function') await closeEngine();
    },
  });
  return server;
}

/**
 * Serves the site on `port`/`host` until SIGTERM or SIGINT (scripts/start.mjs and `node scripts/serve.mjs`).
 * On the embedded database the engine opens first, through the local control listener: when another
 * process has the database, this one says which and exits 1 before it accepts a connection.
 * @param {{ distDir?: string, port?: number, host?: string }} [options]
 */
export async function serveSite({ distDir = undefined, port = 4321, host = '0.0.0.0' } = {}) {
  const server = await createSiteServer(distDir ? { distDir } : {});
  // From here on: the engine may open below, and a stop must close it.
  server.shutdown.install();
  // With DATABASE_URL (PostgreSQL) there is no lock to hold: the engine opens on first use, as before.
  if (!process.env.DATABASE_URL) {
    const { loadConfig } = await import('../src/server/config.ts');
    let config;
    try {
      config = loadConfig(process.env);
    } catch (err) {
      console.error(`[meshfront] ${err.message}`);
      process.exit(1);
    }
    const { startLocalControl } = await import('../src/server/local-control/listener.ts');
    const control = await startLocalControl({
      dataDir: config.dataDir,
      // The route (src/pages/api/admin/local-command.ts) runs in the Astro server bundle, on its engine.
      handle: async (req, res) => (await server.builds.current()).value.astroHandler(req, res),
    });
    const ready = await control.ready();
    if (!ready.ok) {
      console.error(`[meshfront] ${ready.error}`);
      await control.close(0);
      process.exit(1);
    }
    control.publish();
    server.localControl = control;
  }
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  // Memory a load made the process grow into goes back to the system once it is quiet again.
  const { readMemoryReleaseSettings, startMemoryRelease } = await import('../src/lib/http/memory-release.ts');
  server.once('close', startMemoryRelease(readMemoryReleaseSettings(process.env)));
  console.log(`Meshfront is serving on http://localhost:${server.address().port}`);
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Served as a shop: production mode unless NODE_ENV says otherwise (src/server/config.ts).
  process.env.NODE_ENV ||= 'production';
  await serveSite({ port: Number(process.env.PORT ?? 4321), host: process.env.HOST ?? '0.0.0.0' });
}
