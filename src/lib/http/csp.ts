/**
 * The site's Content-Security-Policy: scripts only from this origin, the inline scripts the page itself
 * carries (allowed one by one by their SHA-256 hash, never 'unsafe-inline'), Stripe (card payments) and
 * the reCAPTCHA bot check — nothing else. Used by scripts/serve.mjs for prebuilt pages (hashes read from
 * the HTML file) and by src/middleware.ts for on-demand pages (hashes read from the rendered body).
 *
 * Imported by scripts/serve.mjs with Node's type stripping: keep to erasable TypeScript.
 */
import crypto from 'node:crypto';

/** What Stripe.js needs (https://docs.stripe.com/security/guide#content-security-policy). */
export const STRIPE_SOURCES = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
  img: ['https://*.stripe.com'],
} as const;

/** What reCAPTCHA v3 needs (Google's reCAPTCHA FAQ on CSP). */
export const RECAPTCHA_SOURCES = {
  script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
  frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
} as const;

export interface CspOptions {
  /** 'sha256-…' values of the page's inline scripts. */
  scriptHashes?: readonly string[];
  /** PUBLIC_RECAPTCHA_SCRIPT_URL when it is not Google's: its directory is allowed as a script source. */
  recaptchaScriptUrl?: string;
  /** PUBLIC_API_BASE when the islands talk to an engine on another origin. */
  apiBase?: string;
  /** Served over HTTPS: ask the browser to upgrade stray http:// subresources. */
  https?: boolean;
}

/** Script types the browser executes (others, like application/ld+json, are data and need no hash). */
const EXECUTABLE_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript']);

/** SHA-256 hashes, in CSP source syntax, of every executable inline <script> in an HTML document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attrs = m[1] ?? '';
    if (/\ssrc\s*=/i.test(attrs)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]*)/i.exec(attrs)?.[1]?.toLowerCase() ?? '';
    if (!EXECUTABLE_TYPES.has(type)) continue;
    hashes.add(
      `'sha256-${crypto
        .createHash('sha256')
        .update(m[2] ?? '', 'utf8')
        .digest('base64')}'`,
    );
  }
  return [...hashes];
}

/** The source expression that allows a script URL's directory (scheme, host, port and path up to the last '/'). */
export function sourceForScriptUrl(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    return `${u.origin}${u.pathname.slice(0, u.pathname.lastIndexOf('/') + 1)}`;
  } catch {
    return null;
  }
}

function originOf(url: string | undefined): string | null {
  if (!url || url.startsWith('/')) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : null;
  } catch {
    return null;
  }
}

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const recaptchaScript = sourceForScriptUrl(options.recaptchaScriptUrl);
  const apiOrigin = originOf(options.apiBase);
  const uniq = (list: (string | null | undefined)[]) => [...new Set(list.filter((s): s is string => !!s))].join(' ');
  const directives = [
    "default-src 'self'",
    // 'wasm-unsafe-eval': the support search (Pagefind) runs WebAssembly; it does not allow eval().
    `script-src ${uniq(["'self'", "'wasm-unsafe-eval'", ...(options.scriptHashes ?? []), ...STRIPE_SOURCES.script, ...RECAPTCHA_SOURCES.script, recaptchaScript])}`,
    // Inline style attributes come from components and islands; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    `img-src ${uniq(["'self'", 'data:', 'blob:', ...STRIPE_SOURCES.img])}`,
    "font-src 'self' data:",
    `connect-src ${uniq(["'self'", apiOrigin, ...STRIPE_SOURCES.connect])}`,
    `frame-src ${uniq([...STRIPE_SOURCES.frame, ...RECAPTCHA_SOURCES.frame])}`,
    // Workers are same-origin files: Pagefind's search worker and the ALTCHA bot check's solver (the
    // widget's "external" build, whose worker script is bundled as a file instead of a blob: URL).
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ];
  if (options.https) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}
