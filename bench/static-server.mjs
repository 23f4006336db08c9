// Static pages: how close the Node server (scripts/serve.mjs) comes to a plain static file server
// serving the same prebuilt file on the same machine. The plain server is the ceiling — it does what
// any file server must (map the URL to a file, read it, send it with a content type) and nothing else —
// so the ratio is the price of everything scripts/serve.mjs adds on top (security headers, CSP with
// inline-script hashes, locale negotiation, redirects, Astro's static handler).
//
// Standalone: node bench/static-server.mjs <dist/client> <port> starts only the plain server.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.woff2': 'font/woff2',
};

/**
 * A minimal static file server: `/a/b/` → `<root>/a/b/index.html`, `/x.css` → `<root>/x.css`.
 * Reads the file on every request (no in-memory cache), as a file server without a cache layer does.
 * @returns {Promise<http.Server>} listening on `port` (loopback)
 */
export function startPlainStaticServer(rootDir, port) {
  const root = path.resolve(rootDir);
  const server = http.createServer(async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      return res.end();
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://static.invalid').pathname);
    } catch {
      res.writeHead(400);
      return res.end();
    }
    if (pathname.endsWith('/')) pathname += 'index.html';
    const file = path.resolve(root, `.${pathname}`);
    // Never serve outside the root (../ in the URL).
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403);
      return res.end();
    }
    try {
      const body = await fs.promises.readFile(file);
      res.writeHead(200, {
        'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
        'content-length': body.length,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** What a browser sends for a page navigation (English, so the first-visit language redirect stays out). */
export const BROWSER_PAGE_HEADERS = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-US,en;q=0.9',
};

/** One GET probe: status, bytes on the wire and the content encoding the server chose. */
export async function probe(url, headers = BROWSER_PAGE_HEADERS) {
  // fetch() decompresses transparently and hides the wire size; use node:http to see it.
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () =>
        resolve({ status: res.statusCode, bytes, encoding: res.headers['content-encoding'] ?? 'identity' }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** autocannon GET load at fixed concurrency; req/s, p50, p99 and every kind of failure. */
export function loadGet({ url, headers = BROWSER_PAGE_HEADERS, connections = 50, duration = 10 }) {
  return new Promise((resolve, reject) => {
    autocannon({ url, method: 'GET', headers, connections, duration }, (err, result) => {
      if (err) return reject(err);
      resolve({
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.non2xx + result.timeouts,
        total: result.requests.total,
      });
    });
  });
}

/**
 * Loads the same page from both servers, one after the other (never together: they share 2 cores),
 * after a short warm-up of each. Returns both results and node/plain as the ratio of req/s.
 */
export async function compareStatic({ nodeBase, plainBase, pagePath, connections = 50, duration = 10 }) {
  const nodeUrl = new URL(pagePath, nodeBase).href;
  const plainUrl = new URL(pagePath, plainBase).href;
  const [nodeProbe, plainProbe] = [await probe(nodeUrl), await probe(plainUrl)];
  if (nodeProbe.status !== 200) throw new Error(`${pagePath}: the Node server answered ${nodeProbe.status}`);
  if (plainProbe.status !== 200) throw new Error(`${pagePath}: the plain server answered ${plainProbe.status}`);
  await loadGet({ url: nodeUrl, connections: 10, duration: 2 });
  await loadGet({ url: plainUrl, connections: 10, duration: 2 });
  const node = await loadGet({ url: nodeUrl, connections, duration });
  const plain = await loadGet({ url: plainUrl, connections, duration });
  return { node, plain, ratio: plain.rps > 0 ? node.rps / plain.rps : 0, nodeProbe, plainProbe };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir, port] = process.argv.slice(2);
  if (!dir || !fs.existsSync(dir) || !/^\d+$/.test(port ?? '')) {
    console.error('usage: node bench/static-server.mjs <dist/client> <port>');
    process.exit(2);
  }
  const server = await startPlainStaticServer(dir, Number(port));
  console.log(`plain static server for ${dir} on http://127.0.0.1:${port}`);
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
