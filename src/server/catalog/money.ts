/** Money inside the engine is integer cents (EUR). These convert at the edges only. */
import type { LocaleCode } from '../../lib/i18n/locales.ts';
import { formatMoney as formatInLocale } from '../../lib/money.ts';

/** "349", "349.5", "349.00" → 34900. Throws on anything else (seed-format already validated the shape). */
export function parseMoney(value: string): number {
  const m = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(value);
  if (!m) throw new Error(`not a decimal amount: ${JSON.stringify(value)}`);
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

/** A GraphQL Float amount in euros (minPrice/maxPrice) → cents, without float drift (12.345 → 1235). */
export function eurosToCents(value: number): number {
  return Math.round(Number((value * 100).toFixed(4)));
}

/** WooCommerce RAW spelling: the stored decimal with trailing zeros trimmed (34900 → "349", 1250 → "12.5"). */
export function formatRaw(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const euros = Math.floor(abs / 100);
  const rest = abs % 100;
  if (rest === 0) return `${sign}${euros}`;
  return `${sign}${euros}.${String(rest).padStart(2, '0').replace(/0$/, '')}`;
}

/**
 * The storefront's display format in the answer's language: "€1,349.00", "-€5.00" in English,
 * "1.349,00 €" in German (the same helper the storefront uses, no float division).
 */
export function formatMoney(cents: number, locale: LocaleCode = 'en_US'): string {
  return formatInLocale(cents, locale);
}
