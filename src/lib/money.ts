/**
 * Money without floats. Amounts travel as integer cents inside the storefront and as decimal strings
 * ("1234.5", "1234.50") on the wire; converting between them is string work, so 0.1 + 0.2 never
 * happens to a price.
 *
 * The store currency is EUR. `formatEUR` renders en-US style ("€1,234.50"); pages in other locales
 * show the engine's FORMATTED strings where they have them.
 */

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

function groupThousands(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Formats cents (number) or a decimal string as euros in en-US style: 123450 / "1234.5" → "€1,234.50",
 * negative amounts as "-€5.00". A string that is not a decimal amount yields ''.
 */
export function formatEUR(value: number | string): string {
  const cents = typeof value === 'number' ? value : decimalToCents(value);
  if (cents === null) return '';
  const decimal = centsToDecimal(cents);
  const negative = decimal.startsWith('-');
  const [whole, fraction] = (negative ? decimal.slice(1) : decimal).split('.');
  return `${negative ? '-' : ''}€${groupThousands(whole)}.${fraction}`;
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
