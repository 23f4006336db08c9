/**
 * The prebuilt 404 page (src/components/error/NotFound.astro) names its own path (/404/) because it is
 * built once for every unknown path; its script writes the requested path in only when JavaScript runs.
 * The Node server knows the path, so it writes the same message into the page before sending it: the
 * visible text and the page descriptions, from the page's own wording (data-not-found-template), HTML-escaped.
 * Pure; imported by site-rules.ts under Node's type stripping: keep to erasable TypeScript.
 */

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1]?.toLowerCase() === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** The value of a data attribute in a tag: '' when it is present without a value, null when absent. */
function dataAttribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${name}(?=[\\s=/>])(?:\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+)))?`).exec(tag);
  if (!match) return null;
  return decodeEntities(match[1] ?? match[2] ?? match[3] ?? '');
}

/** The path as the visitor typed it: percent-decoded when that is valid, control characters replaced. */
function readablePath(pathname: string): string {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape (/%E0%A4%A) is shown as requested.
  }
  return decoded.replace(/[\u0000-\u001f\u007f]/g, '\ufffd');
}

/**
 * The not-found message for `pathname` in the page's language, as the page's script would write it:
 * an unknown product, a listing page that does not exist, or any other path. Null when the page has no
 * template (not the 404 page).
 */
export function notFoundMessage(html: string, pathname: string): string | null {
  const tag = /<[a-z]+\b[^>]*\sdata-not-found-template\b[^>]*>/i.exec(html)?.[0];
  if (!tag) return null;
  const shown = readablePath(pathname);
  const product = dataAttribute(tag, 'data-product');
  if (product && /\/product\/[^/]+\/?$/.test(pathname)) return product;
  if (/\/page\/[^/]*\/?$/.test(pathname)) {
    return `${dataAttribute(tag, 'data-page-before') ?? ''}${shown}${dataAttribute(tag, 'data-page-after') ?? ''}`;
  }
  return `${dataAttribute(tag, 'data-before') ?? ''}${shown}${dataAttribute(tag, 'data-after') ?? ''}`;
}

/** The 404 page with the message for the requested path; the page unchanged when it has no template. */
export function notFoundPage(html: string, pathname: string): string {
  const message = notFoundMessage(html, pathname);
  if (message === null) return html;
  const escaped = escapeHtml(message);
  return html
    .replace(
      /(<p\b[^>]*\sdata-error-message\b[^>]*>)[^<]*(<\/p>)/i,
      (_, open: string, close: string) => `${open}${escaped}${close}`,
    )
    .replace(
      /(<meta\s+(?:name|property)="(?:description|og:description|twitter:description)"\s+content=")[^"]*(")/gi,
      (_, open: string, close: string) => `${open}${escaped}${close}`,
    );
}
