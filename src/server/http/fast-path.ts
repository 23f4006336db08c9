/**
 * The catalog fast path: hot catalog reads answered with stored response bytes, in front of Yoga.
 *
 * The storefront sends the same few catalog documents (product lists, product pages) with the same
 * variables over and over. Yoga's pipeline (request normalisation, envelop hooks, armor, context
 * building, the response cache's own lookup, serialisation) costs far more than the answer itself, so
 * a request whose exact body Yoga has already answered — for the same catalog and stock versions, the
 * same Origin and Accept, and the same answer language (Accept-Language as request-locale.ts reads it:
 * prices and texts are written in it) — gets those bytes back directly. What still happens per request:
 *
 * - the `woocommerce-session` rule: a request without a valid token (header or session cookie) gets a
 *   new guest token in the response header and cookie, exactly as through Yoga (catalog answers do not depend on the session);
 *   so does a customer's session token, which serves only with that customer's login (auth/plugin.ts),
 *   and a request here has none; an answer carrying a token is marked personal (cache-policy.ts);
 * - the catalog versions are read through CatalogService.snapshot(), which asks the database at most
 *   every CATALOG_VERSION_CHECK_MS: a stock or price change made by another process is seen within that
 *   bound, as on Yoga's path, because the key contains the versions;
 * - entries expire with the response cache's TTL (sale windows depend on the clock).
 *
 * Only what Yoga itself produced is stored (200, no GraphQL errors, a read of catalog-only root fields —
 * response-cache.ts decides and tags the request), so trusted documents, armor limits, introspection
 * policy and error masking apply unchanged: a document that fails them never becomes an entry. Requests
 * with `Authorization` always go through Yoga (the login may re-key the session).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine } from '../engine/index.ts';
import { issuedSessionHeaders, presentedSession } from '../session/cookie.ts';
import { isCustomerSessionId, SESSION_HEADER, type SessionState } from '../session/service.ts';
import { PERSONAL_CACHE_CONTROL, PERSONAL_VARY, varyWith, varyWithout } from './cache-policy.ts';
import { CATALOG_RESPONSE_TTL_MS, FAST_PATH_TAG, catalogVersionsKey, type FastPathTag } from './response-cache.ts';
import { getEngine } from '../engine/index.ts';
import { getYoga, type MeshfrontYoga } from './yoga.ts';
import { localeOfHeader } from './request-locale.ts';

/** Catalog documents are a few KB; larger bodies are not worth buffering here and go to Yoga as they are. */
const MAX_FAST_BODY_BYTES = 64 * 1024;
const MAX_ENTRIES = 1000;
const MAX_STORED_BYTES = 64 * 1024 * 1024;

type Entry = { at: number; status: number; headers: Record<string, string>; body: Buffer };

export type FastPathStats = { hits: number; misses: number; entries: number; bytes: number };

export type FastPathOptions = { ttlMs?: number; maxEntries?: number; maxBytes?: number };

export class CatalogFastPath {
  private entries = new Map<string, Entry>();
  private bytes = 0;
  private versions = '';
  readonly stats: FastPathStats = { hits: 0, misses: 0, entries: 0, bytes: 0 };
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;

  constructor(
    private readonly yoga: MeshfrontYoga,
    private readonly engine: () => Promise<Engine>,
    options: FastPathOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? CATALOG_RESPONSE_TTL_MS;
    this.maxEntries = options.maxEntries ?? MAX_ENTRIES;
    this.maxBytes = options.maxBytes ?? MAX_STORED_BYTES;
  }

  /** Whether a request may be a fast-path read, judged from its method, path and headers alone. */
  static candidate(
    method: string | undefined,
    pathname: string,
    header: (name: string) => string | null | undefined,
    lengthRequired = true,
  ): boolean {
    if (method !== 'POST' || pathname !== '/graphql') return false;
    if (header('authorization')) return false;
    if (!/^application\/json\b/i.test(header('content-type') ?? '')) return false;
    // Incremental delivery (SSE, multipart) is streamed by Yoga; never stored.
    const accept = header('accept') ?? '';
    if (/text\/event-stream|multipart\/mixed/i.test(accept)) return false;
    const declared = header('content-length');
    if (declared == null) return !lengthRequired;
    const length = Number(declared);
    return Number.isInteger(length) && length > 0 && length <= MAX_FAST_BODY_BYTES;
  }

  private async currentVersions(): Promise<string> {
    const engine = await this.engine();
    const versions = catalogVersionsKey(await engine.catalog.snapshot());
    if (versions !== this.versions) {
      // Every stored answer belongs to older versions now: drop them at once rather than by age.
      this.entries.clear();
      this.bytes = 0;
      this.versions = versions;
    }
    return versions;
  }

  private key(
    versions: string,
    origin: string | null | undefined,
    accept: string | null | undefined,
    body: string,
  ): string {
    return `${versions}\n${origin ?? ''}\n${accept ?? ''}\n${body}`;
  }

  /** The request's accept part of the key: its Accept and the language the answer is written in. */
  static acceptKey(accept: string | null | undefined, acceptLanguage: string | null | undefined): string {
    return `${accept ?? ''}\n${localeOfHeader(acceptLanguage)}`;
  }

  /** The stored answer for this body, or null. */
  async lookup(
    body: string,
    origin: string | null | undefined,
    accept: string | null | undefined,
  ): Promise<Entry | null> {
    const versions = await this.currentVersions();
    const key = this.key(versions, origin, accept, body);
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (Date.now() - entry.at >= this.ttlMs) {
      this.remove(key, entry);
      return null;
    }
    this.stats.hits++;
    return entry;
  }

  /** Keep Yoga's answer when the catalog plugin tagged it as a cacheable catalog read at the current versions. */
  store(
    tag: FastPathTag,
    body: string,
    origin: string | null | undefined,
    accept: string | null | undefined,
    status: number,
    headers: Headers,
    bytes: Buffer,
  ): void {
    if (!tag.cacheable || status !== 200 || tag.versions !== this.versions || Date.now() - tag.at >= this.ttlMs) return;
    if (bytes.length > this.maxBytes / 16) return;
    const stored: Record<string, string> = {};
    headers.forEach((value, name) => {
      // The session header and the caching it implies are decided per request; the length is the stored body's.
      if (name === 'vary') {
        const vary = varyWithout(value, PERSONAL_VARY);
        if (vary) stored.vary = vary;
      } else if (
        name !== SESSION_HEADER &&
        name !== 'cache-control' &&
        name !== 'content-length' &&
        name !== 'set-cookie'
      )
        stored[name] = value;
    });
    stored['content-length'] = String(bytes.length);
    const key = this.key(tag.versions, origin, accept, body);
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    while (
      this.entries.size >= this.maxEntries ||
      (this.entries.size && this.bytes + bytes.length + key.length > this.maxBytes)
    ) {
      const [oldKey, oldEntry] = this.entries.entries().next().value!;
      this.remove(oldKey, oldEntry);
    }
    this.entries.set(key, { at: tag.at, status, headers: stored, body: bytes });
    this.bytes += bytes.length + key.length;
    this.stats.entries = this.entries.size;
    this.stats.bytes = this.bytes;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.body.length + key.length;
    this.stats.entries = this.entries.size;
    this.stats.bytes = this.bytes;
  }

  /**
   * The session of a request answered from memory (its header, or the session cookie: session/cookie.ts):
   * only whether to send a new token matters. Requests here carry no login, so a customer's session
   * becomes a new guest session, as through Yoga.
   */
  async session(header: (name: string) => string | null | undefined): Promise<SessionState> {
    return this.sessionOf(header, (await this.engine()).sessions);
  }

  private async sessionOf(
    header: (name: string) => string | null | undefined,
    sessions: Engine['sessions'],
  ): Promise<SessionState> {
    const presented = presentedSession('POST', header, sessions.cookie !== null);
    const session = sessions.fromHeaderNow(presented) ?? (await sessions.fromHeader(presented));
    if (isCustomerSessionId(session.customerId)) sessions.startGuest(session);
    return session;
  }

  /** Headers for a stored answer sent to this request: with a new token, personal (no cache may keep it). */
  private async responseHeaders(
    entry: Entry,
    header: (name: string) => string | null | undefined,
  ): Promise<Record<string, string>> {
    const { sessions } = await this.engine();
    const session = await this.sessionOf(header, sessions);
    if (!session.issue) return entry.headers;
    return {
      ...entry.headers,
      ...issuedSessionHeaders(session.token, sessions.cookie),
      'cache-control': PERSONAL_CACHE_CONTROL,
      vary: varyWith(entry.headers.vary, PERSONAL_VARY),
    };
  }

  // ---------- node:http (npm run api) ----------

  /** A node:http request listener: fast-path reads answered here, everything else handed to Yoga. */
  nodeHandler(): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      const header = (name: string) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v.join(', ') : v;
      };
      const pathname = (req.url ?? '/').split('?', 1)[0]!;
      if (!CatalogFastPath.candidate(req.method, pathname, header)) {
        void this.yoga(req, res);
        return;
      }
      this.handleNode(req, res, header).catch((err) => {
        console.error('[meshfront] catalog fast path failed:', err);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errors: [{ message: 'Unexpected error.' }] }));
      });
    };
  }

  private async handleNode(
    req: IncomingMessage,
    res: ServerResponse,
    header: (name: string) => string | undefined,
  ): Promise<void> {
    const raw = await readBody(req);
    if (raw === null) return; // the client went away
    const body = raw.toString('utf8');
    const origin = header('origin');
    const accept = CatalogFastPath.acceptKey(header('accept'), header('accept-language'));
    // The catalog versions come from the database: when it cannot be asked, Yoga answers (with the
    // retryable database error) rather than a bare 500 from here.
    const entry = await this.lookup(body, origin, accept).catch(() => null);
    if (entry) {
      res.writeHead(entry.status, await this.responseHeaders(entry, header));
      res.end(entry.body);
      return;
    }
    this.stats.misses++;
    const tag: FastPathTag = { cacheable: false, versions: '', at: 0 };
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const host = /^[\w.:[\]-]+$/.test(header('host') ?? '') ? header('host') : 'localhost';
    const response = await this.yoga.fetch(
      `http://${host}${req.url}`,
      { method: 'POST', headers, body: raw },
      { req, res, [FAST_PATH_TAG]: tag },
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    const cookies = response.headers.getSetCookie?.() ?? [];
    if (cookies.length) out['set-cookie'] = cookies;
    out['content-length'] = String(bytes.length);
    res.writeHead(response.status, out);
    res.end(bytes);
    this.store(tag, body, origin, accept, response.status, response.headers, bytes);
  }

  // ---------- fetch API (the Astro-mounted /graphql route) ----------

  /** Answer a platform Request: stored bytes for a known catalog read, otherwise Yoga with `serverContext`. */
  async handleRequest(request: Request, serverContext: Record<string, unknown> = {}): Promise<Response> {
    const header = (name: string) => request.headers.get(name);
    // The site server has already applied its body limit; a body without a declared length is read here.
    if (!CatalogFastPath.candidate(request.method, new URL(request.url).pathname, header, false))
      return this.yoga.fetch(request, serverContext);
    const body = await request.text();
    const origin = header('origin');
    const accept = CatalogFastPath.acceptKey(header('accept'), header('accept-language'));
    // The catalog versions come from the database: when it cannot be asked, Yoga answers (with the
    // retryable database error) rather than a bare 500 from here.
    const entry = await this.lookup(body, origin, accept).catch(() => null);
    if (entry)
      return new Response(new Uint8Array(entry.body), {
        status: entry.status,
        headers: await this.responseHeaders(entry, header),
      });
    this.stats.misses++;
    const tag: FastPathTag = { cacheable: false, versions: '', at: 0 };
    const response = await this.yoga.fetch(
      request.url,
      { method: 'POST', headers: request.headers, body },
      { ...serverContext, [FAST_PATH_TAG]: tag },
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    this.store(tag, body, origin, accept, response.status, response.headers, bytes);
    // A platform Response (Astro refuses @whatwg-node's own class), without a body for 204/304.
    const empty = response.status === 204 || response.status === 304;
    return new Response(empty ? null : new Uint8Array(bytes), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }
}

/** The whole request body (bounded by the content-length the candidate check saw), or null when the client aborted. */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('close', () => {
      if (!req.complete) resolve(null);
    });
    req.on('error', reject);
  });
}

let fastPath: CatalogFastPath | null = null;

/** The process-wide fast path in front of getYoga() (npm run api and the Astro /graphql route). */
export function getCatalogFastPath(): CatalogFastPath {
  fastPath ??= new CatalogFastPath(getYoga(), getEngine);
  return fastPath;
}
