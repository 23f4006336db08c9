/**
 * What the admin's price inputs say about tax: whether the amounts typed in include the base country's VAT
 * (TAX_PRICES_INCLUDE_TAX, WooCommerce's "prices entered with tax"). An operator who types a gross price
 * into an input they read as net sells at a sixth less (19% VAT); the label says which one the shop takes.
 * The admin is in English only, so these are its words.
 */
import type { CommerceSettings } from '../shop/settings.ts';

export type PriceEntryTax = {
  /** After each price input's label: "incl. VAT", "excl. VAT", or null when the shop charges no tax. */
  note: string | null;
  /** The price group's legend. */
  legend: string;
};

export function priceEntryTax(settings: Pick<CommerceSettings, 'pricesIncludeTax' | 'taxEnabled'>): PriceEntryTax {
  if (!settings.taxEnabled) return { note: null, legend: 'Price (euros; the shop charges no tax)' };
  return settings.pricesIncludeTax
    ? { note: 'incl. VAT', legend: 'Price (euros, including VAT)' }
    : { note: 'excl. VAT', legend: 'Price (euros, without VAT: it is added at checkout)' };
}
