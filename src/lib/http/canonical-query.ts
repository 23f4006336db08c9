/**
 * The canonical URL of a prebuilt page for the URL the visitor is on. Pages are built without a query
 * string, so /products?page=2 was sent with the canonical of /products. Seo.astro marks a prebuilt page's
 * canonical link with the query parameters it keeps (data-canonical-query); when a request for such a
 * page carries one of them, scripts/serve.mjs sends the page with those parameters in the canonical link,
 * og:url and the hreflang alternates. Tracking parameters (utm_*) are never in them. Requests without a
 * kept parameter are left to the static file handlers.
 * Imported by scripts/serve.mjs with Node's type stripping: keep to erasable TypeScript.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { canonicalWithQuery } from '../canonical.ts';
import { chooseEncoding } from './compressed-static.ts';
import { escapeHtml } from './not-found-page.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const decode = (value: string) => value.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name] ?? _);

function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`).exec(tag);
  return match ? decode(match[1] ?? '') : null;
}

/**
 * The page with the visitor's kept query parameters in its canonical URL, og:url and alternates; null
 * when nothing changes (no marked canonical link, or no kept parameter in `search`).
 */
export function rewriteCanonicalQuery(html: string, search: string): string | null {
  const canonicalTag = /<link\b[^>]*\srel="canonical"[^>]*>/i.exec(html)?.[0];
  const kept = canonicalTag ? attribute(canonicalTag, 'data-canonical-query') : null;
  if (!canonicalTag || !kept) return null;
  const whitelist = kept.split(',').filter(Boolean);
  const params = new URLSearchParams(search);
  if (!whitelist.some((name) => params.getAll(name).some((v) => v !== ''))) return null;
  const withQuery = (url: string) => {
    try {
      return escapeHtml(canonicalWithQuery(decode(url), search, whitelist));
    } catch {
      return null;
    }
  };
  const rewrite = (tag: string, name: 'href' | 'content') =>
    tag.replace(new RegExp(`(\\s${name}\\s*=\\s*")([^"]*)(")`), (whole, open: string, url: string, close: string) => {
      const next = withQuery(url);
      return next === null ? whole : `${open}${next}${close}`;
    });
  return html
    .replace(/<link\b[^>]*>/gi, (tag) =>
      /\srel="canonical"/i.test(tag) || (/\srel="alternate"/i.test(tag) && /\shreflang="/i.test(tag))
        ? rewrite(tag, 'href')
        : tag,
    )
    .replace(/<meta\b[^>]*\sproperty="og:url"[^>]*>/gi, (tag) => rewrite(tag, 'content'));
}

/** Sends prebuilt pages whose canonical URL depends on the request's query (see above). */
export class CanonicalQuery {
  private readonly clientDir: string;

  constructor(clientDir: string) {
    this.clientDir = path.resolve(clientDir);
  }

  /** True when the page was sent; false (nothing sent, no header touched) when others should answer. */
  async serve(req: IncomingMessage, res: ServerResponse, requestUrl: string): Promise<boolean> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = new URL(requestUrl, 'http://site.invalid');
    if (!url.search || req.headers.range) return false;
    const file = await this.pageFor(url.pathname);
    if (!file) return false;
    const page = rewriteCanonicalQuery(await fs.promises.readFile(file, 'utf8'), url.search);
    if (page === null) return false;
    const raw = Buffer.from(page);
    const encoding = chooseEncoding(
      Array.isArray(req.headers['accept-encoding'])
        ? req.headers['accept-encoding'].join(', ')
        : req.headers['accept-encoding'],
    );
    const body =
      encoding === 'br'
        ? await brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
        : encoding === 'gzip'
          ? await gzip(raw)
          : raw;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    if (encoding) res.setHeader('Content-Encoding', encoding);
    const vary = String(res.getHeader('Vary') ?? '');
    res.setHeader('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'public, max-age=0');
    res.setHeader('Content-Length', body.length);
    res.writeHead(200);
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  /** The prebuilt page a path names (`/products` → products/index.html), or null. */
  private async pageFor(pathname: string): Promise<string | null> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    if (decoded.includes('\0') || decoded.split('/').some((segment) => segment.startsWith('.'))) return null;
    const dir = path.resolve(this.clientDir, `.${path.posix.normalize(decoded)}`);
    if (dir !== this.clientDir && !dir.startsWith(this.clientDir + path.sep)) return null;
    const file = path.join(dir, 'index.html');
    try {
      return (await fs.promises.stat(file)).isFile() ? file : null;
    } catch {
      return null;
    }
  }
}
