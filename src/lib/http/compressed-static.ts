/**
 * Compressed static files for scripts/serve.mjs. Astro's Node handler sends prebuilt files as they are on
 * disk, so a phone downloaded a 100–250 KB product or listing page and a 65 KB stylesheet uncompressed —
 * Lighthouse's largest finding on every page (render-blocking CSS and HTML on a slow connection). This
 * answers GET/HEAD for an existing text file (page, CSS, JS, JSON, SVG, XML) with a Brotli or gzip body
 * when the browser accepts one, compressed once per file version and kept in a bounded LRU cache, so a
 * request costs a stat and a cache lookup. Everything else (ranges, unknown paths, on-demand routes,
 * binary files, tiny files) is left to Astro's handler.
 *
 * A CDN in front compresses by itself; this is for the one-process deployment (`npm start`).
 * Imported by scripts/serve.mjs with Node's type stripping: keep to erasable TypeScript.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import type { IncomingMessage, ServerResponse } from 'node:http';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Content types as Astro's handler sends them, for the types worth compressing. */
const TEXT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Below this, compression saves less than a packet and costs a cache entry. */
const MIN_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to send for an Accept-Encoding header: Brotli when accepted (smaller), else gzip, else
 * none. Honours q=0 ("not acceptable") and the * wildcard.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const accepts = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

type Entry = { key: string; body: Buffer; etag: string };

export interface CompressedStaticOptions {
  /** Upper bound of the compressed bodies kept in memory (default 32 MB, a few thousand pages). */
  maxCacheBytes?: number;
}

export class CompressedStatic {
  private readonly clientDir: string;
  private readonly maxCacheBytes: number;
  private readonly cache = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Entry>>();
  private cachedBytes = 0;

  constructor(clientDir: string, options: CompressedStaticOptions = {}) {
    this.clientDir = path.resolve(clientDir);
    this.maxCacheBytes = options.maxCacheBytes ?? 32 * 1024 * 1024;
  }

  /**
   * Sends the compressed file when the request is for one; returns false (nothing sent, no header
   * touched) when Astro's handler should answer instead.
   */
  async serve(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (req.headers.range) return false;
    const encoding = chooseEncoding(headerValue(req.headers['accept-encoding']));
    if (!encoding) return false;
    let file = this.fileFor(pathname);
    if (!file) return false;
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
      // Site links have no trailing slash (/products): with trailingSlash 'ignore' Astro's handler serves
      // the directory's index.html for them, and so does this.
      if (stat.isDirectory()) {
        file = path.join(file, 'index.html');
        stat = await fs.promises.stat(file);
      }
    } catch {
      return false;
    }
    const type = TEXT_TYPES[path.extname(file)];
    if (!type || !stat.isFile() || stat.size < MIN_BYTES) return false;

    const entry = await this.compressed(file, stat, encoding);
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Encoding', encoding);
    res.setHeader('Vary', appendVary(res.getHeader('Vary'), 'Accept-Encoding'));
    res.setHeader('ETag', entry.etag);
    res.setHeader('Last-Modified', stat.mtime.toUTCString());
    // Keep a Cache-Control set earlier (no-store for /latest-build.json); otherwise as Astro's handler does.
    if (!res.hasHeader('Cache-Control')) {
      res.setHeader(
        'Cache-Control',
        pathname.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0',
      );
    }
    if (etagMatches(headerValue(req.headers['if-none-match']), entry.etag)) {
      res.removeHeader('Content-Encoding');
      res.writeHead(304);
      res.end();
      return true;
    }
    res.setHeader('Content-Length', entry.body.length);
    res.writeHead(200);
    res.end(req.method === 'HEAD' ? undefined : entry.body);
    return true;
  }

  /** The file a path names inside the client directory: `/a/` → a/index.html, `/x.css` → x.css. */
  private fileFor(pathname: string): string | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const relative = decoded.endsWith('/') ? `${decoded}index.html` : decoded;
    // Dotfiles stay with Astro's handler, which refuses them.
    if (relative.split('/').some((segment) => segment.startsWith('.'))) return null;
    const file = path.resolve(this.clientDir, `.${path.posix.normalize(relative)}`);
    return file.startsWith(this.clientDir + path.sep) ? file : null;
  }

  private compressed(file: string, stat: fs.Stats, encoding: Encoding): Promise<Entry> {
    const key = `${file}\0${encoding}\0${stat.size}\0${stat.mtimeMs}`;
    const hit = this.cache.get(key);
    if (hit) {
      // Most recently used goes to the end of the Map's order.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return Promise.resolve(hit);
    }
    let inFlight = this.pending.get(key);
    if (!inFlight) {
      inFlight = (async () => {
        const raw = await fs.promises.readFile(file);
        // Hashed assets (/_astro/) are few and cached for a year: worth the slowest, smallest Brotli.
        // Pages are many: a middle quality compresses 100 KB in a few milliseconds, once.
        const quality = file.includes(`${path.sep}_astro${path.sep}`) ? 11 : 6;
        const body =
          encoding === 'br'
            ? await brotli(raw, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
                },
              })
            : await gzip(raw, { level: 9 });
        const entry = {
          key,
          body,
          etag: `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}-${encoding}"`,
        };
        this.remember(entry);
        return entry;
      })().finally(() => this.pending.delete(key));
      this.pending.set(key, inFlight);
    }
    return inFlight;
  }

  private remember(entry: Entry): void {
    if (entry.body.length > this.maxCacheBytes / 4) return;
    this.cache.set(entry.key, entry);
    this.cachedBytes += entry.body.length;
    for (const [key, old] of this.cache) {
      if (this.cachedBytes <= this.maxCacheBytes) break;
      this.cache.delete(key);
      this.cachedBytes -= old.body.length;
    }
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function appendVary(current: number | string | string[] | undefined, name: string): string {
  const list = (Array.isArray(current) ? current.join(', ') : String(current ?? ''))
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (!list.some((v) => v.toLowerCase() === name.toLowerCase())) list.push(name);
  return list.join(', ');
}

function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => strip(tag) === strip(etag));
}
