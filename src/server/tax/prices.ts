/**
 * The tax arithmetic of prices, as WooCommerce's cart does it (WC_Cart_Totals, WC_Tax::calc_tax), in integer
 * cents with rates in basis points (19% = 1900). Pure functions: the cart (cart/totals.ts) and the catalog
 * resolvers call them with a tax context (tax/location.ts).
 *
 * Rounding: half up to a whole cent, per line — WooCommerce's default (woocommerce_tax_round_at_subtotal =
 * no): each line's tax is rounded and the cart adds the rounded line taxes, never rounding a sum of
 * unrounded ones.
 *
 * Prices entered including tax (woocommerce_prices_include_tax = yes) are gross prices of the shop's base
 * country. Another destination, with woocommerce_adjust_non_base_location_prices on (the default), pays the
 * net price plus its own tax: net = entered − the base country's tax, then the destination's rate is added
 * (€119.00 at 19% → €100.00 → €120.00 at 20%, €100.00 where no tax applies). A VAT-exempt customer (a
 * business whose VAT is reverse charged) pays the net price.
 *
 * Where this differs from WooCommerce, on purpose, so that every price a shopper sees is what they pay:
 * - the destination's price is worked out per unit and rounded to the cent, and a line is quantity × that
 *   unit price. WooCommerce adjusts the line's whole amount, so three units could cost a cent more or less
 *   than three times the unit price the product page showed.
 * - the net amount of a line is its gross amount minus its rounded tax. WooCommerce rounds both halves on
 *   their own, so when the unrounded tax ends in exactly half a cent it charges a cent more than the price
 *   it showed.
 */
import { taxOf, type TaxRate } from './rates.ts';

const bp = (rate: TaxRate | null) => BigInt(rate?.basisPoints ?? 0);

/** a × b / c, rounded half up (all non-negative). */
function mulDivHalfUp(a: bigint, b: bigint, c: bigint): number {
  return Number((2n * a * b + c) / (2n * c));
}

/** Tax contained in a gross amount: gross × rate / (1 + rate), rounded half up (WC_Tax::calc_inclusive_tax). */
export function taxIncludedIn(grossCents: number, rate: TaxRate | null): number {
  if (!rate || grossCents <= 0) return 0;
  return mulDivHalfUp(BigInt(grossCents), bp(rate), 10_000n + bp(rate));
}

/** Everything a price depends on besides the product: the shop's settings, the destination and the buyer. */
export type TaxContext = {
  /** Catalog prices are entered including the base country's tax. */
  pricesIncludeTax: boolean;
  /** With prices entered including tax, another destination pays the net price plus its own tax. */
  adjustNonBaseLocationPrices: boolean;
  /** The tax of the shop's base country (null when none applies there, or tax is off). */
  baseRate: TaxRate | null;
  /** The tax of the destination (null when none applies there, or tax is off). */
  rate: TaxRate | null;
  /** The buyer pays no VAT (a business in another EU country: reverse charge). */
  vatExempt: boolean;
};

/**
 * The price a buyer pays for one unit: `cents` includes the tax `rate` when `includesTax`, else the tax is
 * added on top (prices entered without tax) or there is none (`rate` null).
 */
export type UnitPrice = { cents: number; includesTax: boolean; rate: TaxRate | null };

export function unitPrice(enteredCents: number, ctx: TaxContext): UnitPrice {
  if (!ctx.pricesIncludeTax) return { cents: enteredCents, includesTax: false, rate: ctx.vatExempt ? null : ctx.rate };
  if (ctx.vatExempt) {
    // WooCommerce's remove_item_base_taxes: the base country's tax comes off (the destination's when prices
    // are not adjusted for other destinations).
    const contained = ctx.adjustNonBaseLocationPrices ? ctx.baseRate : ctx.rate;
    const net = contained
      ? mulDivHalfUp(BigInt(enteredCents), 10_000n, 10_000n + bp(contained))
      : Math.max(0, enteredCents);
    return { cents: net, includesTax: false, rate: null };
  }
  if (ctx.adjustNonBaseLocationPrices && bp(ctx.rate) !== bp(ctx.baseRate)) {
    // WooCommerce's adjust_non_base_location_price: net of the base tax, plus the destination's.
    const cents = mulDivHalfUp(BigInt(enteredCents), 10_000n + bp(ctx.rate), 10_000n + bp(ctx.baseRate));
    return { cents, includesTax: true, rate: ctx.rate };
  }
  return { cents: enteredCents, includesTax: true, rate: ctx.rate };
}

/** Whether two tax contexts price every entered amount alike (so one's prices may be shown for the other). */
export function samePrices(a: TaxContext, b: TaxContext): boolean {
  return (
    a.pricesIncludeTax === b.pricesIncludeTax &&
    a.adjustNonBaseLocationPrices === b.adjustNonBaseLocationPrices &&
    a.vatExempt === b.vatExempt &&
    bp(a.rate) === bp(b.rate) &&
    bp(a.baseRate) === bp(b.baseRate)
  );
}

/** A unit price as shown: with the tax (`incl`) or without it (`excl`). */
export function displayedUnitPrice(price: UnitPrice, display: 'incl' | 'excl'): number {
  if (price.includesTax) return display === 'incl' ? price.cents : price.cents - taxIncludedIn(price.cents, price.rate);
  return display === 'incl' ? price.cents + taxOf(price.cents, price.rate) : price.cents;
}

/**
 * One cart line's amounts. `amountCents` is the line's price (quantity × unit price) before discounts,
 * `discountCents` the coupons' discount on it, both in the unit price's terms (including the tax when the
 * price does: WooCommerce discounts the price as entered).
 */
export type LineTax = {
  /** before discounts, excl. tax */
  subtotalNetCents: number;
  subtotalTaxCents: number;
  /** after discounts, excl. tax */
  totalNetCents: number;
  totalTaxCents: number;
};

export function lineTax(amountCents: number, discountCents: number, price: Omit<UnitPrice, 'cents'>): LineTax {
  const after = amountCents - discountCents;
  if (price.includesTax) {
    const subtotalTax = taxIncludedIn(amountCents, price.rate);
    const totalTax = taxIncludedIn(after, price.rate);
    return {
      subtotalNetCents: amountCents - subtotalTax,
      subtotalTaxCents: subtotalTax,
      totalNetCents: after - totalTax,
      totalTaxCents: totalTax,
    };
  }
  return {
    subtotalNetCents: amountCents,
    subtotalTaxCents: taxOf(amountCents, price.rate),
    totalNetCents: after,
    totalTaxCents: taxOf(after, price.rate),
  };
}
