// HTTP hardening of the site server (scripts/serve.mjs, here in front of a stand-in for Astro's handler
// that serves a small client directory) and of the standalone API (src/server/http/standalone.ts, a real
// child process on a real database): security headers and a CSP that allows a page's own inline scripts
// by hash, HSTS and Secure cookies only over HTTPS (X-Forwarded-Proto counts only with TRUST_PROXY), 413
// for oversized bodies (declared or chunked), 408 for clients that never finish their headers, and a
// SIGTERM that lets an in-flight request finish, refuses new connections, closes the database, exits 0.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, inlineScriptHashes } from '../../src/lib/http/csp.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/db.ts';
import { ENGINE_START_TIMEOUT_MS, FIXTURE_CATALOG } from './harness.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const INLINE = 'document.documentElement.dataset.ready="1"';
const PAGE = `<!doctype html><html><head><script>${INLINE}</script><script type="module">console.log(1)</script>
<script type="application/ld+json">{"@type":"Product"}</script><script type="module" src="/_astro/a.js"></script></head><body>hi</body></html>`;
const sha = (text: string) => `'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`;

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

function request(
  port: number,
  options: {
    method?: string;
    path?: string;
    headers?: Record<string, string | number>;
    body?: string | Buffer;
    chunked?: boolean;
  },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // agent: false — a new connection each time (a pooled keep-alive socket would hide a refused connect).
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        agent: false,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) {
      if (options.chunked) {
        // Several writes without a Content-Length: Node sends Transfer-Encoding: chunked.
        const data = Buffer.from(options.body);
        for (let i = 0; i < data.length; i += 16 * 1024) req.write(data.subarray(i, i + 16 * 1024));
      } else req.write(options.body);
    }
    req.end();
  });
}

describe('site server (scripts/serve.mjs)', () => {
  let server: http.Server;
  let port: number;
  let dist: string;
  const seenBodies: string[] = [];

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-serve-'));
    fs.mkdirSync(path.join(dist, 'client', 'shop'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'client', 'shop', 'index.html'), PAGE);
    fs.writeFileSync(path.join(dist, 'client', '404.html'), '<!doctype html><script>window.notFound=1</script>');
    const { createSiteServer } = await import('../../scripts/serve.mjs');
    // Stands in for Astro: a page, an API route that echoes its body and sets a cookie, an unknown path.
    const handler = async (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.url?.startsWith('/shop')) return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      if (req.url?.startsWith('/api/') || req.url?.startsWith('/graphql')) {
        const pre = (req as { body?: Buffer }).body;
        let body = pre ? pre.toString() : '';
        if (!pre) for await (const c of req) body += c;
        seenBodies.push(body);
        res.setHeader('set-cookie', 'seen=1; Path=/');
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ length: body.length }));
      }
      res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><script>window.notFound=1</script>');
    };
    server = await createSiteServer({
      distDir: dist,
      handler,
      env: {
        TRUST_PROXY: '1',
        PUBLIC_RECAPTCHA_SCRIPT_URL: 'http://127.0.0.1:9/recaptcha/api.js',
        HTTP_MAX_BODY_BYTES: '4096',
        GRAPHQL_MAX_BODY_BYTES: '2048',
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('a prebuilt page carries the security headers and a CSP that allows exactly its inline scripts', async () => {
    const r = await request(port, { path: '/shop/' });
    expect(r.status).toBe(200);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
    const csp = String(r.headers['content-security-policy']);
    const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src '))!;
    expect(scriptSrc).toContain(sha(INLINE));
    expect(scriptSrc).toContain(sha('console.log(1)'));
    // JSON-LD is data, not code: no hash for it; and never a blanket allowance for inline code.
    expect(scriptSrc).not.toContain(sha('{"@type":"Product"}'));
    expect(scriptSrc).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*(?!\.js\.stripe\.com)/);
    expect(scriptSrc).toContain('https://js.stripe.com');
    expect(scriptSrc).toContain('https://www.google.com/recaptcha/');
    expect(scriptSrc).toContain('http://127.0.0.1:9/recaptcha/');
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toMatch(/frame-src [^;]*https:\/\/hooks\.stripe\.com/);
    expect(csp).toMatch(/connect-src 'self' https:\/\/api\.stripe\.com(;|$)/);
    // Plain HTTP: no HSTS, no upgrade.
    expect(r.headers['strict-transport-security']).toBeUndefined();
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it('an unknown path gets the 404 page’s hashes', async () => {
    const r = await request(port, { path: '/nowhere' });
    expect(r.status).toBe(404);
    expect(String(r.headers['content-security-policy'])).toContain(sha('window.notFound=1'));
  });

  it('behind a trusted proxy that saw HTTPS: HSTS, upgrade-insecure-requests and Secure cookies', async () => {
    const r = await request(port, {
      method: 'POST',
      path: '/api/thing',
      headers: { 'x-forwarded-proto': 'https', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(r.status).toBe(200);
    expect(r.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}; includeSubDomains$/);
    expect(String(r.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    expect(r.headers['set-cookie']).toEqual(['seen=1; Path=/; SameSite=Lax; Secure']);
    const plain = await request(port, {
      method: 'POST',
      path: '/api/thing',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(plain.headers['set-cookie']).toEqual(['seen=1; Path=/; SameSite=Lax']);
  });

  it('oversized bodies are refused with 413 and a clear message, declared or chunked, before the handler reads them', async () => {
    const before = seenBodies.length;
    const big = 'x'.repeat(5000);
    const api = await request(port, {
      method: 'POST',
      path: '/api/contact-form/create',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(api.status).toBe(413);
    expect(JSON.parse(api.body)).toEqual({
      message: 'Request body too large: the limit for this endpoint is 4096 bytes.',
    });
    const chunked = await request(port, {
      method: 'POST',
      path: '/api/contact-form/create',
      headers: { 'content-type': 'application/json' },
      body: big,
      chunked: true,
    });
    expect(chunked.status).toBe(413);
    const gql = await request(port, {
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json' },
      body: 'y'.repeat(3000),
      chunked: true,
    });
    expect(gql.status).toBe(413);
    expect(JSON.parse(gql.body).errors[0].message).toBe(
      'Request body too large: the limit for GraphQL requests is 2048 bytes.',
    );
    expect(seenBodies.length).toBe(before);
    // Within the limit, a chunked body reaches the handler whole.
    const ok = await request(port, {
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json' },
      body: 'z'.repeat(2000),
      chunked: true,
    });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ length: 2000 });
  });

  it('the policy builder never allows inline code wholesale', () => {
    expect(inlineScriptHashes(PAGE)).toEqual([sha(INLINE), sha('console.log(1)')]);
    expect(contentSecurityPolicy({ apiBase: 'https://api.shop.example/graphql' })).toMatch(
      /connect-src 'self' https:\/\/api\.shop\.example https:\/\/api\.stripe\.com/,
    );
    // Workers only from this site's own files (the search worker, the bot check's solver), never blob: URLs.
    expect(contentSecurityPolicy().split('; ')).toContain("worker-src 'self'");
  });
});

describe('standalone API (npm run api)', () => {
  let db: TestDatabase;
  let child: ChildProcess;
  let port: number;
  let log = '';

  beforeAll(async () => {
    db = await createTestDatabase();
    // As package.json's `api` script runs it: scripts/api.mjs bundles the engine and runs it in this process.
    child = spawn(process.execPath, [path.join(ROOT, 'scripts/api.mjs')], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...db.env,
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        MESHFRONT_CATALOG_DIR: FIXTURE_CATALOG,
        SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
        ORDER_SWEEP_INTERVAL_MS: '0',
        HTTP_REQUEST_TIMEOUT_MS: '3000',
        HTTP_HEADERS_TIMEOUT_MS: '1500',
        SHUTDOWN_GRACE_MS: '20000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    port = await new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        log += d;
        const m = /GraphQL API on http:\/\/[^:]+:(\d+)\/graphql/.exec(log);
        if (m) resolve(Number(m[1]));
      });
      child.stderr!.on('data', (d) => (log += d));
      child.on('exit', (code) => reject(new Error(`the API exited (${code}): ${log.slice(-2000)}`)));
    });
  }, ENGINE_START_TIMEOUT_MS);
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await db?.drop();
  });

  it('answers GraphQL with the security headers; refuses an oversized body with 413', async () => {
    const ok = await request(port, {
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ data: { __typename: 'RootQuery' } });
    expect(ok.headers['x-content-type-options']).toBe('nosniff');
    expect(String(ok.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
    const big = await request(port, {
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json' },
      body: 'q'.repeat(300 * 1024),
      chunked: true,
    });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body).errors[0].message).toMatch(
      /^Request body too large: the limit for GraphQL requests is 262144 bytes\.$/,
    );
  });

  it('a client that never finishes its headers is cut off (408) instead of holding the connection', async () => {
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write('POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'),
      );
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);

  it('SIGTERM: the request in flight finishes, new connections are refused, the process exits 0', async () => {
    const body = JSON.stringify({ query: 'query { products(first: 2) { nodes { slug } } }' });
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    let response = '';
    socket.on('data', (d) => (response += d));
    const responded = new Promise<void>((r) => socket.on('end', () => r()));
    // Headers and half the body: the request is in flight when the signal arrives.
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
    );
    await new Promise((r) => setTimeout(r, 200));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    const refused = await request(port, { path: '/graphql?query=%7B__typename%7D' }).then(
      () => 'answered',
      (e: NodeJS.ErrnoException) => e.code,
    );
    expect(refused).toBe('ECONNREFUSED');
    socket.write(body.slice(20));
    await responded;
    expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(response.toLowerCase()).toContain('connection: close');
    expect(response).toContain('"slug":');
    expect(await exited).toBe(0);
    expect(log).toContain('SIGTERM: not accepting new connections');
    expect(log).toContain('stopped');
  }, 60_000);
});
