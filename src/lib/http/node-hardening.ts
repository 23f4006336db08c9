/**
 * HTTP hardening shared by the site server (scripts/serve.mjs) and the standalone API
 * (src/server/http/standalone.ts): security headers (HSTS only over HTTPS, as told by the socket or, with
 * TRUST_PROXY, by X-Forwarded-Proto), Secure cookies over HTTPS, request body limits (413 before the body
 * is read), server-side timeouts and graceful shutdown (stop accepting, finish in-flight requests, then
 * close the database).
 *
 * Imported by scripts/serve.mjs with Node's type stripping: keep to erasable TypeScript and import
 * siblings with their .ts extension.
 */
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';

export interface HardeningSettings {
  /** TRUST_PROXY: false = the socket decides HTTPS; true or a number = X-Forwarded-Proto from our proxies counts. */
  trustProxy: boolean | number;
  /** HSTS_MAX_AGE seconds (0 = no Strict-Transport-Security header). */
  hstsMaxAge: number;
  /** HTTP_MAX_BODY_BYTES: bodies of /api/* requests. */
  apiMaxBodyBytes: number;
  /** GRAPHQL_MAX_BODY_BYTES: bodies of /graphql requests. */
  graphqlMaxBodyBytes: number;
  /** HTTP_REQUEST_TIMEOUT_MS: time a client gets to send a whole request (slow-loris protection). */
  requestTimeoutMs: number;
  /** HTTP_HEADERS_TIMEOUT_MS: time a client gets to send the request headers. */
  headersTimeoutMs: number;
  /** SHUTDOWN_GRACE_MS: how long in-flight requests may take to finish after SIGTERM. */
  shutdownGraceMs: number;
}

function intSetting(env: Record<string, string | undefined>, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}".`);
  return n;
}

export function loadHardeningSettings(env: Record<string, string | undefined> = process.env): HardeningSettings {
  const proxy = (env.TRUST_PROXY ?? 'false').trim().toLowerCase();
  let trustProxy: boolean | number;
  if (proxy === 'true') trustProxy = true;
  else if (proxy === 'false' || proxy === '' || proxy === '0') trustProxy = false;
  else if (/^\d+$/.test(proxy)) trustProxy = Number(proxy);
  else throw new Error(`TRUST_PROXY must be true, false or a number of proxies, got "${env.TRUST_PROXY}".`);
  const requestTimeoutMs = intSetting(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 1000);
  return {
    trustProxy,
    hstsMaxAge: intSetting(env, 'HSTS_MAX_AGE', 31_536_000, 0),
    apiMaxBodyBytes: intSetting(env, 'HTTP_MAX_BODY_BYTES', 1024 * 1024, 1024),
    graphqlMaxBodyBytes: intSetting(env, 'GRAPHQL_MAX_BODY_BYTES', 256 * 1024, 1024),
    requestTimeoutMs,
    headersTimeoutMs: Math.min(intSetting(env, 'HTTP_HEADERS_TIMEOUT_MS', 20_000, 1000), requestTimeoutMs),
    shutdownGraceMs: intSetting(env, 'SHUTDOWN_GRACE_MS', 20_000, 0),
  };
}

/** Whether the client reached us over HTTPS: the socket, or the nearest trusted proxy's X-Forwarded-Proto. */
export function isHttpsRequest(req: IncomingMessage, trustProxy: boolean | number): boolean {
  if ((req.socket as { encrypted?: boolean } | undefined)?.encrypted) return true;
  if (trustProxy === false || trustProxy === 0) return false;
  const raw = req.headers['x-forwarded-proto'];
  const value = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  const hops = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (!hops.length) return false;
  // Each proxy appends; with N trusted proxies the entry our outermost proxy saw is N from the end.
  const index = trustProxy === true ? 0 : Math.max(0, hops.length - trustProxy);
  return hops[index] === 'https';
}

/** Headers every response carries (the CSP is added per page by the caller). */
export function baseSecurityHeaders(
  https: boolean,
  settings: Pick<HardeningSettings, 'hstsMaxAge'>,
): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'SAMEORIGIN',
    'Cross-Origin-Resource-Policy': 'same-site',
  };
  if (https && settings.hstsMaxAge > 0)
    headers['Strict-Transport-Security'] = `max-age=${settings.hstsMaxAge}; includeSubDomains`;
  return headers;
}

/** One Set-Cookie value with SameSite (Lax unless set) and, over HTTPS, Secure. */
export function hardenCookie(cookie: string, https: boolean): string {
  let out = cookie;
  if (!/;\s*samesite=/i.test(out)) out += '; SameSite=Lax';
  if (https && !/;\s*secure(\s*;|\s*$)/i.test(out)) out += '; Secure';
  return out;
}

/**
 * Rewrites every Set-Cookie this response sends (set with setHeader or passed to writeHead) through
 * hardenCookie. Call before anything writes headers.
 */
export function hardenCookies(res: ServerResponse, https: boolean): void {
  const fix = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map((v) => hardenCookie(String(v), https))
      : typeof value === 'string'
        ? hardenCookie(value, https)
        : value;
  const original = res.writeHead;
  res.writeHead = function hardenedWriteHead(this: ServerResponse, ...args: unknown[]) {
    const current = res.getHeader('set-cookie');
    if (current !== undefined) res.setHeader('set-cookie', fix(current) as string | string[]);
    for (const arg of args) {
      if (Array.isArray(arg)) {
        // Raw header list [name, value, name, value…].
        for (let i = 0; i + 1 < arg.length; i += 2)
          if (String(arg[i]).toLowerCase() === 'set-cookie') arg[i + 1] = fix(arg[i + 1]);
      } else if (arg && typeof arg === 'object') {
        for (const key of Object.keys(arg))
          if (key.toLowerCase() === 'set-cookie')
            (arg as Record<string, unknown>)[key] = fix((arg as Record<string, unknown>)[key]);
      }
    }
    return (original as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}

/** The body limit for a path, or null when the path takes no limited body (pages, static files). */
export function bodyLimitFor(
  pathname: string,
  settings: Pick<HardeningSettings, 'apiMaxBodyBytes' | 'graphqlMaxBodyBytes'>,
): number | null {
  if (pathname === '/graphql' || pathname === '/graphql/') return settings.graphqlMaxBodyBytes;
  if (pathname.startsWith('/api/')) return settings.apiMaxBodyBytes;
  return null;
}

function tooLarge(res: ServerResponse, pathname: string, limit: number): false {
  const message = `Request body too large: the limit for ${pathname.startsWith('/graphql') ? 'GraphQL requests' : 'this endpoint'} is ${limit} bytes.`;
  // GraphQL clients read `errors`; the REST endpoints answer { message }.
  const body = JSON.stringify(
    pathname.startsWith('/graphql')
      ? { errors: [{ message, extensions: { code: 'PAYLOAD_TOO_LARGE' } }] }
      : { message },
  );
  if (!res.headersSent) {
    // The rest of the body is not read: close the connection rather than keep it for another request.
    res.writeHead(413, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
  }
  res.end(body);
  return false;
}

/**
 * Enforces the body limit before any handler reads the body. A declared Content-Length over the limit is
 * answered 413 at once; a body without one (chunked) is read here up to the limit and handed on as
 * `req.body` (both Astro's node adapter and Yoga's use a pre-read body). Resolves true when the request
 * may continue, false when the 413 has been sent.
 */
export async function enforceBodyLimit(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number | null,
  pathname: string,
): Promise<boolean> {
  const method = (req.method ?? 'GET').toUpperCase();
  if (limit === null || method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return true;
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    const length = Number(declared);
    if (Number.isFinite(length) && length > limit) {
      req.resume();
      return tooLarge(res, pathname, limit);
    }
    return true;
  }
  if (!req.headers['transfer-encoding']) return true;
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of req) {
      received += (chunk as Buffer).length;
      if (received > limit) {
        tooLarge(res, pathname, limit);
        req.destroy();
        return false;
      }
      chunks.push(chunk as Buffer);
    }
  } catch {
    // The client went away while sending.
    return false;
  }
  (req as IncomingMessage & { body?: Buffer }).body = Buffer.concat(chunks);
  return true;
}

/**
 * Options for http.createServer with Node's own slow-client limits: the whole request within
 * requestTimeoutMs, headers within headersTimeoutMs (answered 408), checked often enough to matter.
 */
export function serverOptions(
  settings: Pick<HardeningSettings, 'requestTimeoutMs' | 'headersTimeoutMs'>,
): ServerOptions {
  return {
    requestTimeout: settings.requestTimeoutMs,
    headersTimeout: settings.headersTimeoutMs,
    connectionsCheckingInterval: Math.max(250, Math.min(30_000, Math.floor(settings.headersTimeoutMs / 4))),
    // Idle keep-alive sockets go after 5 s (Node's default), so shutdown does not wait on them.
    keepAliveTimeout: 5000,
  };
}

/**
 * Graceful shutdown: stop accepting connections, let in-flight requests finish (new requests on kept-alive
 * sockets are answered with Connection: close), force-close what is still open after the grace period,
 * then run `close` (the database) and exit 0. Returns `stop(signal)`; `install` wires SIGTERM and SIGINT.
 */
export function gracefulShutdown(
  server: Server,
  options: {
    graceMs: number;
    close?: () => Promise<void>;
    log?: (message: string) => void;
    exit?: (code: number) => void;
  },
): { stop: (signal: string) => Promise<void>; stopping: () => boolean; install: () => void } {
  let stopping: Promise<void> | null = null;
  const log = options.log ?? ((m: string) => console.log(`[meshfront] ${m}`));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  // Responses not yet started when the signal comes tell the client to close the connection after them.
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (stopping && !res.headersSent) res.setHeader('connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  const stop = (signal: string) => {
    stopping ??= (async () => {
      log(`${signal}: not accepting new connections, finishing requests in flight`);
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => {
        log(`requests still running after ${options.graceMs} ms: closing their connections`);
        server.closeAllConnections();
      }, options.graceMs);
      timer.unref();
      await closed;
      clearTimeout(timer);
      try {
        await options.close?.();
      } catch (err) {
        log(`closing the database failed: ${(err as Error).message}`);
        exit(1);
        return;
      }
      log('stopped');
      exit(0);
    })();
    return stopping;
  };
  return {
    stop,
    stopping: () => stopping !== null,
    install() {
      process.once('SIGTERM', () => void stop('SIGTERM'));
      process.once('SIGINT', () => void stop('SIGINT'));
    },
  };
}
