/**
 * `npm run api`: the GraphQL endpoint alone on node:http (PORT, default 4000), for deployments that
 * serve the static site from a CDN and run N API processes behind a load balancer. Same hardening as the
 * site server (src/lib/http/node-hardening.ts): security headers, body limit (413), slow-client timeouts,
 * and on SIGTERM/SIGINT it stops accepting, finishes the requests in flight, closes the database and exits 0.
 * On the embedded database it holds the database's lock, so it also takes `npm run shop` commands from this
 * machine on a loopback port of its own (src/server/local-control); another process holding the database
 * stops it at start with that process named.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contentSecurityPolicy } from '../../lib/http/csp.ts';
import { readMemoryReleaseSettings, startMemoryRelease } from '../../lib/http/memory-release.ts';
import {
  baseSecurityHeaders,
  bodyLimitFor,
  enforceBodyLimit,
  gracefulShutdown,
  isHttpsRequest,
  loadHardeningSettings,
  serverOptions,
} from '../../lib/http/node-hardening.ts';
import { getConfig } from '../config.ts';
import { DatabaseLockedError } from '../db/data-dir-lock.ts';
import { getEngine, type Engine } from '../engine/index.ts';
import { localCommandNodeHandler } from '../local-control/endpoint.ts';
import { startLocalControl } from '../local-control/listener.ts';
import { getCatalogFastPath } from './fast-path.ts';
import { answerHealth, engineReady } from './health.ts';

const config = getConfig();
const hardening = loadHardeningSettings();
let engine: Engine;
try {
  engine = await getEngine();
} catch (err) {
  if (!(err instanceof DatabaseLockedError)) throw err;
  console.error(`[meshfront] ${err.message}`);
  process.exit(1);
}
const control =
  engine.database.kind === 'pglite'
    ? await startLocalControl({ dataDir: config.dataDir, handle: localCommandNodeHandler(async () => engine) })
    : null;
control?.publish();
// Hot catalog reads are answered from stored bytes in front of Yoga; everything else goes to Yoga.
const handle = getCatalogFastPath().nodeHandler();
// The API serves JSON (and GraphiQL outside production, which loads its own scripts): no page policy,
// only what stops it being framed or sniffed.
const API_CSP = config.isProduction ? "default-src 'none'; frame-ancestors 'none'" : contentSecurityPolicy();

const server = createServer(serverOptions(hardening), async (req, res) => {
  const https = isHttpsRequest(req, hardening.trustProxy);
  for (const [name, value] of Object.entries(baseSecurityHeaders(https, hardening))) res.setHeader(name, value);
  res.setHeader('Content-Security-Policy', API_CSP);
  const pathname = new URL(req.url ?? '/', 'http://api.invalid').pathname;
  if (!(await enforceBodyLimit(req, res, bodyLimitFor(pathname, hardening) ?? hardening.apiMaxBodyBytes, pathname)))
    return;
  if (
    await answerHealth(
      req,
      res,
      engineReady(async () => engine),
    )
  )
    return;
  handle(req, res);
});
// Memory a load made the process grow into goes back to the system once it is quiet again.
const stopMemoryRelease = startMemoryRelease(readMemoryReleaseSettings());
gracefulShutdown(server, {
  graceMs: hardening.shutdownGraceMs,
  close: async () => {
    stopMemoryRelease();
    await control?.close(hardening.shutdownGraceMs);
    await engine.close();
  },
}).install();

server.listen(config.port, config.host, () => {
  const port = (server.address() as AddressInfo).port;
  console.log(
    `[meshfront] GraphQL API on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}/graphql (${engine.database.kind})`,
  );
});
