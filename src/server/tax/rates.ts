/**
 * Tax by country: a rate in basis points (19% = 1900) for the customer's taxable address (shipping
 * address, as WooCommerce's default "tax based on shipping address"), applied per line in integer cents.
 */
import type { CommerceSettings } from '../shop/settings.ts';

export type TaxRate = { country: string; basisPoints: number; label: string };

/** The rate for a country, or null when no tax applies there (or tax is off). */
export function taxRateFor(settings: CommerceSettings, country: string): TaxRate | null {
  if (!settings.taxEnabled) return null;
  const bp = settings.taxRates[country];
  if (!bp) return null;
  return { country, basisPoints: bp, label: country in EU_LABEL_OVERRIDES ? EU_LABEL_OVERRIDES[country]! : 'VAT' };
}

const EU_LABEL_OVERRIDES: Record<string, string> = {
  DE: 'MwSt.',
  AT: 'USt.',
  FR: 'TVA',
  IT: 'IVA',
  ES: 'IVA',
  PT: 'IVA',
  NL: 'BTW',
  BE: 'BTW',
};

/**
 * Tax added to a net amount of cents (WC_Tax::calc_exclusive_tax), rounded half up to a whole cent per line
 * (amounts are never negative here). Tax contained in a gross amount: prices.ts.
 */
export function taxOf(cents: number, rate: TaxRate | null): number {
  if (!rate || cents <= 0) return 0;
  return Number((BigInt(cents) * BigInt(rate.basisPoints) + 5000n) / 10000n);
}
