/**
 * The CSP of a prebuilt page: scripts/serve.mjs asks for a request path, this finds the HTML file the
 * static handler will send (or the 404 page it falls back to), hashes its inline scripts once per file
 * version (cached by path and mtime) and builds the policy. Non-HTML paths get the policy without hashes.
 *
 * Imported by scripts/serve.mjs with Node's type stripping: keep to erasable TypeScript.
 */
import fs from 'node:fs';
import path from 'node:path';
import { contentSecurityPolicy, inlineScriptHashes, type CspOptions } from './csp.ts';
import { localePrefix } from '../i18n/locales.ts';
import { splitLocalePath } from '../i18n/negotiate.ts';

type Cached = { mtimeMs: number; size: number; hashes: string[] };

export class StaticPagePolicies {
  private readonly cache = new Map<string, Cached>();
  private readonly clientDir: string;
  private readonly base: Omit<CspOptions, 'scriptHashes' | 'https'>;

  constructor(clientDir: string, base: Omit<CspOptions, 'scriptHashes' | 'https'>) {
    this.clientDir = clientDir;
    this.base = base;
  }

  /** The Content-Security-Policy header for a request path. */
  policyFor(pathname: string, https: boolean): string {
    const file = this.htmlFileFor(pathname);
    return contentSecurityPolicy({ ...this.base, https, scriptHashes: file ? this.hashesOf(file) : [] });
  }

  /** The HTML file served for a path: the page itself, or the (localized) 404 page; null for other files. */
  htmlFileFor(pathname: string): string | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      decoded = pathname;
    }
    const ext = path.posix.extname(decoded);
    if (ext && ext !== '.html') return null;
    const relative = path.posix.normalize(decoded).replace(/^\/+/, '');
    const candidates =
      ext === '.html'
        ? [relative]
        : decoded.endsWith('/')
          ? [`${relative}index.html`]
          : [`${relative}/index.html`, `${relative}.html`];
    for (const candidate of candidates) {
      const file = path.join(this.clientDir, candidate);
      if (!file.startsWith(this.clientDir + path.sep)) continue;
      if (isFile(file)) return file;
    }
    const prefix = localePrefix(splitLocalePath(decoded).locale);
    for (const notFound of [
      prefix ? path.join(this.clientDir, prefix, '404', 'index.html') : null,
      path.join(this.clientDir, '404.html'),
    ]) {
      if (notFound && isFile(notFound)) return notFound;
    }
    return null;
  }

  private hashesOf(file: string): string[] {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return [];
    }
    const cached = this.cache.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.hashes;
    const hashes = inlineScriptHashes(fs.readFileSync(file, 'utf8'));
    this.cache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, hashes });
    return hashes;
  }
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
