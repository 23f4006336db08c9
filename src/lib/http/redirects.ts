/**
 * Route rules that force a redirect. Pure: the Node server (site-rules.ts) and the static build
 * (astro.config.mjs `redirects`) both read this table.
 */
export interface RedirectRule {
  from: string;
  to: string;
  status: 301 | 302 | 307 | 308;
}

export const REDIRECT_RULES: readonly RedirectRule[] = [
  { from: '/shop-todo', to: '/shop', status: 301 },
  { from: '/checkout-todo', to: '/checkout', status: 301 },
  { from: '/product-details-todo', to: '/products', status: 301 },
  { from: '/order-summary-ORIGINAL', to: '/order-summary', status: 301 },
  // The account area's tabs as paths (WooCommerce's account URLs, linked from the support articles and
  // the downloads pages): the account page opens the tab named in ?tab= (src/islands/account/tabs.ts).
  { from: '/my-account/downloads', to: '/my-account?tab=downloads', status: 301 },
  { from: '/my-account/orders', to: '/my-account?tab=orders', status: 301 },
];

const SCRIPT_PROTOCOL = /^\s*(javascript|data|vbscript):/i;

/**
 * Checks a redirect target. Same-site paths stay relative; absolute http(s) URLs leave the site
 * on purpose; script-like protocols and protocol-relative tricks are refused (null).
 */
export function safeRedirectTarget(target: string): string | null {
  // Control characters and backslashes let browsers read "/\evil.com" as another host.
  if (/[\u0000-\u001f\\]/.test(target) || SCRIPT_PROTOCOL.test(target)) return null;
  if (target.startsWith('//')) return null;
  if (target.startsWith('/')) return target;
  try {
    const url = new URL(target);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/**
 * The redirect for a request path, if a rule matches. `localePrefix` is '' or '/de' etc.: a rule
 * written for the default locale also applies under each locale prefix and keeps the prefix.
 * The query string is carried over.
 */
export function matchRedirect(
  pathname: string,
  search = '',
  rules: readonly RedirectRule[] = REDIRECT_RULES,
  localePrefixes: readonly string[] = [''],
): { location: string; status: number } | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const prefix of localePrefixes) {
    if (prefix && !path.startsWith(`${prefix}/`)) continue;
    const rest = prefix ? path.slice(prefix.length) : path;
    const rule = rules.find((r) => r.from === rest);
    if (!rule) continue;
    const target = safeRedirectTarget(rule.to);
    if (!target) return null;
    const location = target.startsWith('/') ? `${prefix}${withQuery(target, search)}` : target;
    return { location, status: rule.status };
  }
  return null;
}

/**
 * A same-site target with the request's query string carried over. When the target has a query of its
 * own (`/my-account?tab=orders`), its parameters win and the request's other parameters are kept.
 */
function withQuery(target: string, search: string): string {
  const at = target.indexOf('?');
  if (at < 0) return `${target}${search}`;
  const params = new URLSearchParams(target.slice(at + 1));
  for (const [name, value] of new URLSearchParams(search)) if (!params.has(name)) params.append(name, value);
  return `${target.slice(0, at)}?${params.toString()}`;
}
