/**
 * A tiny, safe HTML template helper for e-mail bodies. `html` is a tagged template: every interpolated
 * value is HTML-escaped unless it is itself the output of `html` (so templates compose), which makes
 * forgetting to escape a shopper's name impossible rather than unlikely.
 */

const SAFE_HTML = Symbol('SafeHtml');

export type SafeHtml = { readonly [SAFE_HTML]: true; readonly value: string; toString(): string };

/** What may be interpolated: text (escaped), numbers, composed fragments, lists of those; nothing for null/false. */
export type HtmlValue = string | number | SafeHtml | null | undefined | false | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

function trusted(value: string): SafeHtml {
  return { [SAFE_HTML]: true, value, toString: () => value };
}

function isSafeHtml(value: unknown): value is SafeHtml {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SAFE_HTML] === true;
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (isSafeHtml(value)) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return trusted(out);
}

/**
 * Links in mail come from our own settings plus a token, but a `javascript:` or `data:` URL would survive
 * HTML escaping, so only absolute http(s) URLs are accepted.
 */
export function requireHttpUrl(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${field} must be an absolute http(s) URL (got ${JSON.stringify(value)})`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new TypeError(`${field} must be an http(s) URL (got ${url.protocol})`);
  return url.toString();
}

/** Shopper-supplied text that goes into a subject line: one line, no control characters, bounded. */
export function oneLine(value: string, maxLength = 120): string {
  // eslint-disable-next-line no-control-regex
  const flat = value
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat;
}
