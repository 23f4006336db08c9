/**
 * Whose tax applies: the destination (the shipping address, else the billing address, else the shop's base
 * country until the customer gives one — WooCommerce's "tax based on shipping address" with the shop's
 * base address as the default location), and whether the buyer is exempt because the VAT is reverse
 * charged.
 *
 * Reverse charge: a business with a VAT ID of another EU member state than the shop's, buying goods
 * delivered to another EU member state than the shop's, pays no VAT (an exempt intra-Community supply; for
 * the downloads, a service whose VAT the customer accounts for). A VAT ID of the shop's own country changes
 * nothing: that business pays the shop's VAT like everyone else. Outside the EU no VAT applies anyway.
 */
import { EU_COUNTRIES, type CommerceSettings } from '../shop/settings.ts';
import type { TaxContext } from './prices.ts';
import { taxRateFor } from './rates.ts';
import type { VatCheck } from './vat-check.ts';

/** The note an order with the reverse charge carries, to be printed on its invoice. */
export const REVERSE_CHARGE_NOTE =
  'VAT reverse charge: tax-exempt intra-Community supply (Article 138 of Council Directive 2006/112/EC); the customer accounts for the VAT (Article 196).';

/** What the rule needs to know about the customer. */
export type TaxCustomer = {
  billing: { country: string; vatId?: string };
  vat: VatCheck | null;
};

/** Whether the customer's VAT is reverse charged for goods sent to `destination`. */
export function reverseChargeApplies(settings: CommerceSettings, customer: TaxCustomer, destination: string): boolean {
  const check = customer.vat;
  if (!settings.taxEnabled || !check) return false;
  // The check belongs to the VAT ID and billing country the customer has now.
  if (check.vatId !== (customer.billing.vatId ?? '') || check.country !== customer.billing.country) return false;
  const otherMemberState = (country: string) => country !== settings.baseCountry && EU_COUNTRIES.includes(country);
  return otherMemberState(check.country) && otherMemberState(destination);
}

/** The tax context of a destination country for a buyer. */
export function taxContextFor(settings: CommerceSettings, country: string, vatExempt: boolean): TaxContext {
  return {
    pricesIncludeTax: settings.pricesIncludeTax,
    adjustNonBaseLocationPrices: settings.adjustNonBaseLocationPrices,
    baseRate: taxRateFor(settings, settings.baseCountry),
    rate: taxRateFor(settings, country),
    vatExempt,
  };
}

/** The context of a shopper whose address is not known yet: the shop's base country, VAT charged. */
export function baseTaxContext(settings: CommerceSettings): TaxContext {
  return taxContextFor(settings, settings.baseCountry, false);
}

/** What the destination rule reads of a customer: the addresses' countries and the VAT ID check. */
export type TaxAddresses = TaxCustomer & { shipping: { country: string } };

/** A customer's destination for tax, whether their VAT is reverse charged, and the tax context of both. */
export type CustomerTax = { country: string; vatExempt: boolean; context: TaxContext };

/**
 * The tax a customer's prices carry: the shipping address's country, else the billing address's, else the
 * shop's base country — the cart's, the checkout's and the catalog's prices for this customer alike.
 */
export function customerTax(settings: CommerceSettings, customer: TaxAddresses): CustomerTax {
  const country = customer.shipping.country || customer.billing.country || settings.baseCountry;
  const vatExempt = reverseChargeApplies(settings, customer, country);
  return { country, vatExempt, context: taxContextFor(settings, country, vatExempt) };
}
