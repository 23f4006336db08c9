/**
 * Money without floats. Amounts travel as integer cents inside the storefront and as decimal strings
 * ("1234.5", "1234.50") on the wire; converting between them is string work, so 0.1 + 0.2 never
 * happens to a price.
 *
 * The store currency is EUR. `formatMoney` renders an amount the way the page's (or the order's)
 * language writes it — "€1,234.50" in English, "1.234,50 €" in German, "€ 1.234,50" in Brazilian
 * Portuguese — with Intl deciding separators, spacing and the sign's place; `formatEUR` is its English form.
 */
import { DEFAULT_LOCALE, LOCALES, type LocaleCode } from './i18n/locales.ts';

const DECIMAL = /^\s*(-)?(\d+)(?:\.(\d*))?\s*$/;

/**
 * "12", "12.5", "12.50", "-3.999" → cents (1200, 1250, 1250, -400). More than two decimals round half
 * away from zero. Anything that is not a plain decimal (thousands separators, currency signs, "") → null.
 */
export function decimalToCents(value: string): number | null {
  if (typeof value !== 'string') return null;
  const match = DECIMAL.exec(value);
  if (!match) return null;
  const [, minus, whole, fraction = ''] = match;
  if (whole.length > 13) return null; // keeps the result a safe integer
  const padded = `${fraction}00`.slice(0, 2);
  let cents = Number(whole) * 100 + Number(padded);
  if (fraction.length > 2 && Number(fraction[2]) >= 5) cents += 1;
  if (cents === 0) return 0;
  return minus ? -cents : cents;
}

/** 123450 → "1234.50"; -5 → "-0.05". Non-integers are refused: cents are whole by definition. */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Cents must be a whole number, got ${cents}`);
  const negative = cents < 0;
  const digits = String(Math.abs(cents)).padStart(3, '0');
  const result = `${digits.slice(0, -2)}.${digits.slice(-2)}`;
  return negative ? `-${result}` : result;
}

const formatters = new Map<string, Intl.NumberFormat>();

/** One formatter per language (building an Intl.NumberFormat is far dearer than using one). */
function euroFormat(code: LocaleCode): Intl.NumberFormat {
  const bcp47 = (LOCALES.find((l) => l.code === code) ?? DEFAULT_LOCALE).bcp47;
  let format = formatters.get(bcp47);
  if (!format) {
    format = new Intl.NumberFormat(bcp47, {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(bcp47, format);
  }
  return format;
}

/**
 * Formats cents (number) or a decimal string as euros in `code`'s language: 123450 / "1234.5" →
 * "€1,234.50" (en_US), "1.234,50 €" (de_DE), "€ 1.234,50" (pt_BR); negative amounts with the language's
 * minus ("-€5.00", "-5,00 €"). A string that is not a decimal amount yields ''. The amount reaches Intl as
 * a decimal string, so no float rounding happens on the way.
 */
export function formatMoney(value: number | string, code: LocaleCode = DEFAULT_LOCALE.code): string {
  const cents = typeof value === 'number' ? value : decimalToCents(value);
  if (cents === null) return '';
  // A string is exact for Intl (ES2023); a refused string would be NaN, which cents never are.
  return euroFormat(code).format(centsToDecimal(cents) as unknown as number);
}

/** The English form of formatMoney: 123450 / "1234.5" → "€1,234.50", negative amounts as "-€5.00". */
export function formatEUR(value: number | string): string {
  return formatMoney(value, DEFAULT_LOCALE.code);
}

/**
 * The engine's RAW price strings: a simple product's "349" / "349.00", a variable product's
 * comma-separated list of every variation's price ("10, 10, 15, 20"). Returns the amounts in cents,
 * skipping empty or malformed entries; null/undefined/"" → [].
 */
export function parseRawPrices(raw: string | null | undefined): number[] {
  if (typeof raw !== 'string' || raw.trim() === '') return [];
  const prices: number[] = [];
  for (const part of raw.split(',')) {
    const cents = decimalToCents(part);
    if (cents !== null) prices.push(cents);
  }
  return prices;
}

/** Highest amount of a RAW price string in cents, or null when it holds none. */
export function highestRawPrice(raw: string | null | undefined): number | null {
  const prices = parseRawPrices(raw);
  return prices.length ? Math.max(...prices) : null;
}

/** Lowest amount of a RAW price string in cents, or null when it holds none. */
export function lowestRawPrice(raw: string | null | undefined): number | null {
  const prices = parseRawPrices(raw);
  return prices.length ? Math.min(...prices) : null;
}
