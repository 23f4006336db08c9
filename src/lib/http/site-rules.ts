import type { IncomingMessage, ServerResponse } from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { LOCALES, localePrefix } from '../i18n/locales.ts';
import { splitLocalePath } from '../i18n/negotiate.ts';
import { matchRedirect } from './redirects.ts';
import { localeRedirect } from './locale-rule.ts';
import { notFoundPage } from './not-found-page.ts';

// Imported by scripts/serve.mjs with Node's type stripping: keep to erasable TypeScript and
// import siblings with their .ts extension.

const LOCALE_PREFIXES = LOCALES.map((l) => localePrefix(l)).sort((a, b) => b.length - a.length);

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // Only this site may frame its pages (clickjacking); X-Frame-Options for older browsers.
  'Content-Security-Policy': "frame-ancestors 'self'",
  'X-Frame-Options': 'SAMEORIGIN',
};

export interface SiteRulesOptions {
  /** dist/client: where the localized 404 pages are. */
  clientDir?: string;
}

/**
 * Rules applied to every request before the Astro handler serves it (Astro middleware does not
 * run for prerendered pages). Returns true when the response has been sent.
 */
export async function beforeAstro(
  req: IncomingMessage,
  res: ServerResponse,
  options: SiteRulesOptions = {},
): Promise<boolean> {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  const url = new URL(req.url ?? '/', 'http://site.invalid');

  if (url.pathname === '/latest-build.json') res.setHeader('Cache-Control', 'no-store');

  const redirect = matchRedirect(url.pathname, url.search, undefined, LOCALE_PREFIXES);
  if (redirect) {
    res.writeHead(redirect.status, { Location: redirect.location });
    res.end();
    return true;
  }

  const localized = localeRedirect({
    method: req.method ?? 'GET',
    pathname: url.pathname,
    search: url.search,
    accept: header(req, 'accept'),
    acceptLanguage: header(req, 'accept-language'),
    cookie: header(req, 'cookie'),
  });
  if (localized) {
    const headers: Record<string, string> = { Location: localized.location, Vary: 'Accept-Language, Cookie' };
    if (localized.setCookie) headers['Set-Cookie'] = localized.setCookie;
    res.writeHead(302, headers);
    res.end();
    return true;
  }
  // Caches must not hand the English page to a German visitor who would have been redirected.
  res.setHeader('Vary', 'Accept-Language, Cookie');

  if (options.clientDir) localizeNotFound(url.pathname, res, options.clientDir);
  return false;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * Astro answers unknown paths with the English 404.html. Send the prerendered 404 page of the path's
 * locale instead (dist/client/<prefix>/404/index.html, English: 404.html), keeping status 404, with the
 * requested path written into its message (not-found-page.ts), so the page says which path is missing
 * without JavaScript too.
 */
export function localizeNotFound(pathname: string, res: ServerResponse, clientDir: string): void {
  const { locale } = splitLocalePath(pathname);
  const prefix = localePrefix(locale);
  const file = prefix ? path.join(clientDir, prefix, '404', 'index.html') : path.join(clientDir, '404.html');
  const originalWriteHead = res.writeHead;
  res.writeHead = function patchedWriteHead(this: ServerResponse, status: number, ...rest: unknown[]) {
    res.writeHead = originalWriteHead;
    const headers = rest.find((r) => r && typeof r === 'object') as Record<string, unknown> | undefined;
    const type = String(headers?.['content-type'] ?? headers?.['Content-Type'] ?? res.getHeader('content-type') ?? '');
    if (status !== 404 || !type.includes('text/html') || !fs.existsSync(file)) {
      return (originalWriteHead as (...a: unknown[]) => ServerResponse).call(this, status, ...rest);
    }
    const body = Buffer.from(notFoundPage(fs.readFileSync(file, 'utf8'), pathname));
    originalWriteHead.call(this, 404, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    const originalEnd = res.end.bind(res);
    // The English body that Astro streams next is dropped; the localized page is the response.
    res.write = (() => true) as ServerResponse['write'];
    res.end = ((..._args: unknown[]) => originalEnd(body)) as ServerResponse['end'];
    return this;
  } as ServerResponse['writeHead'];
}
