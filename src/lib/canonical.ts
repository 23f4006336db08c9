/**
 * Canonical URL of a page: one URL per piece of content, so search engines do not split ranking
 * between /Products?utm_source=x&page=2 and /products?page=2.
 */
export interface CanonicalOptions {
  /** Lower-case the path (the site's routes are lower-case; editors sometimes link in mixed case). */
  lowercasePath: boolean;
  /** Query parameters that change the content; all others (tracking, session) are dropped. */
  queryWhitelist: readonly string[];
}

export function canonicalUrl(input: string | URL, site: string | URL, options: CanonicalOptions): string {
  const url = new URL(input.toString(), site);
  const base = new URL(site.toString());
  let path = url.pathname;
  if (options.lowercasePath) path = path.toLowerCase();
  // One spelling for the same page: no trailing slash except for the root.
  if (path.length > 1) path = path.replace(/\/+$/, '');
  const allowed = new Set(options.queryWhitelist);
  const kept = [...url.searchParams.entries()]
    .filter(([name, value]) => allowed.has(name) && value !== '')
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  const query = new URLSearchParams(kept).toString();
  return `${base.origin}${path || '/'}${query ? `?${query}` : ''}`;
}

/**
 * A prebuilt page's canonical URL (built without a query string) for the query the visitor asked with:
 * the whitelisted parameters added, sorted, everything else dropped, as canonicalUrl does on demand.
 */
export function canonicalWithQuery(canonical: string, search: string, queryWhitelist: readonly string[]): string {
  const url = new URL(canonical);
  url.search = search;
  return canonicalUrl(url, url.origin, { lowercasePath: false, queryWhitelist });
}
