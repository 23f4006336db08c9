/**
 * The link crawler of tests/e2e/links.spec.ts: every same-site URL a page of the built site points to
 * (links, canonical and hreflang alternates, stylesheets, scripts, images and their srcset candidates),
 * requested once each over HTTP from the running server, so redirects, locale rules and on-demand routes
 * answer as they do for a visitor. Pages that answer with HTML are read in turn.
 */

/** One same-site URL and the first page that points to it (for the failure message). */
export interface FoundLink {
  url: string;
  from: string;
}

export interface BrokenLink extends FoundLink {
  status: number | string;
}

/** What the crawler needs of an HTTP client: the final status and, for HTML pages, the body. */
export type Fetcher = (path: string) => Promise<{ status: number; html: string | null }>;

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };

function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1]?.toLowerCase() === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Attributes holding one URL, and those holding a srcset list (URL and width/density pairs). */
const URL_ATTRIBUTES = /\s(?:href|src|poster)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const SRCSET_ATTRIBUTES = /\s(?:srcset|imagesrcset)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const TAGS = /<(a|link|img|source|script|video|audio|iframe|area)\b([^>]*)>/gi;
/** Not pages or files: other schemes and bare fragments. */
const NOT_FETCHED = /^(?:#|mailto:|tel:|sms:|javascript:|data:|blob:|about:)/i;

/**
 * The same-site URLs (path and query, without the fragment) an HTML page refers to. `pageUrl` resolves
 * relative references; `siteOrigins` are the origins that count as this site (the served one and the
 * build's `site`, which canonical and alternate links use).
 */
export function extractLinks(html: string, pageUrl: URL, siteOrigins: ReadonlySet<string>): string[] {
  // Code samples and scripts hold URL-looking text that is not a link.
  const markup = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, (tag) => tag.slice(0, tag.indexOf('>') + 1));
  const found = new Set<string>();
  const add = (raw: string) => {
    const value = decodeAttribute(raw).trim();
    if (!value || NOT_FETCHED.test(value)) return;
    let url: URL;
    try {
      url = new URL(value, pageUrl);
    } catch {
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    if (!siteOrigins.has(url.origin)) return;
    found.add(`${url.pathname}${url.search}`);
  };
  for (const [, tag, attributes = ''] of markup.matchAll(TAGS)) {
    // <link rel="preconnect|dns-prefetch"> names an origin, not a resource.
    if (tag?.toLowerCase() === 'link' && /\srel\s*=\s*["']?(?:preconnect|dns-prefetch)/i.test(attributes)) continue;
    for (const m of attributes.matchAll(URL_ATTRIBUTES)) add(m[1] ?? m[2] ?? '');
    for (const m of attributes.matchAll(SRCSET_ATTRIBUTES)) {
      for (const candidate of decodeAttribute(m[1] ?? m[2] ?? '').split(','))
        add(candidate.trim().split(/\s+/)[0] ?? '');
    }
  }
  return [...found];
}

export interface CrawlOptions {
  /** Where the crawl starts: paths such as '/' and '/de/'. */
  start: readonly string[];
  /** The served origin: relative links resolve against it. */
  origin: string;
  /** Other origins that name this site (the build's `site` in canonical URLs). */
  aliases?: readonly string[];
  fetch: Fetcher;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Paths not requested at all (endpoints with effects, e.g. logout). */
  skip?: (path: string) => boolean;
}

/** Requests every distinct same-site URL reachable from `start` once; returns the broken ones and the count. */
export async function crawl(options: CrawlOptions): Promise<{ broken: BrokenLink[]; checked: number }> {
  const origins = new Set([new URL(options.origin).origin, ...(options.aliases ?? []).map((a) => new URL(a).origin)]);
  const seen = new Map<string, string>();
  const queue: FoundLink[] = [];
  const broken: BrokenLink[] = [];
  const enqueue = (url: string, from: string) => {
    if (seen.has(url) || options.skip?.(url)) return;
    seen.set(url, from);
    queue.push({ url, from });
  };
  for (const path of options.start) enqueue(path, '(start)');
  const visit = async (link: FoundLink) => {
    try {
      const { status, html } = await options.fetch(link.url);
      if (status >= 400) broken.push({ ...link, status });
      else if (html !== null) {
        for (const found of extractLinks(html, new URL(link.url, options.origin), origins)) enqueue(found, link.url);
      }
    } catch (err) {
      broken.push({ ...link, status: err instanceof Error ? (err.message.split('\n')[0] ?? 'failed') : String(err) });
    }
  };
  const limit = options.concurrency ?? 8;
  await new Promise<void>((resolve) => {
    let active = 0;
    const pump = () => {
      while (active < limit && queue.length) {
        const link = queue.shift() as FoundLink;
        active++;
        void visit(link).finally(() => {
          active--;
          pump();
        });
      }
      if (active === 0 && !queue.length) resolve();
    };
    pump();
  });
  return { broken, checked: seen.size };
}
