/**
 * Intl formatters kept for reuse. Building an Intl.NumberFormat or DateTimeFormat costs far more than
 * formatting with one (the locale data is resolved each time), and a checkout formats dozens of amounts
 * and dates for its mail and invoice. The languages and option sets are the shop's own few, so the memo
 * stays small; it is bounded anyway.
 */
const MAX_FORMATTERS = 256;
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

function memo<F>(cache: Map<string, F>, key: string, make: () => F): F {
  let found = cache.get(key);
  if (!found) {
    if (cache.size >= MAX_FORMATTERS) cache.clear();
    found = make();
    cache.set(key, found);
  }
  return found;
}

export const numberFormat = (locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat =>
  memo(numberFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));

export const dateTimeFormat = (locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat =>
  memo(dateTimeFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
