// The tax arithmetic of prices (src/server/tax/prices.ts, location.ts): prices entered including the base
// country's VAT, adjusted to other destinations as WooCommerce does, net for a reverse-charged business;
// per-line rounding half up in integer cents.
import { describe, expect, it } from 'vitest';
import { loadCommerceSettings } from '../../src/server/shop/settings.ts';
import { reverseChargeApplies, taxContextFor } from '../../src/server/tax/location.ts';
import { displayedUnitPrice, lineTax, taxIncludedIn, unitPrice, type TaxContext } from '../../src/server/tax/prices.ts';
import type { TaxRate } from '../../src/server/tax/rates.ts';
import type { VatCheck } from '../../src/server/tax/vat-check.ts';

const rate = (country: string, basisPoints: number): TaxRate => ({ country, basisPoints, label: 'VAT' });
const DE = rate('DE', 1900);
const FR = rate('FR', 2000);
const LU = rate('LU', 1700);

const ctx = (over: Partial<TaxContext> = {}): TaxContext => ({
  pricesIncludeTax: true,
  adjustNonBaseLocationPrices: true,
  baseRate: DE,
  rate: DE,
  vatExempt: false,
  ...over,
});

describe('the unit price a customer pays (prices entered including the base VAT)', () => {
  it('the base country pays the entered price', () => {
    expect(unitPrice(11900, ctx())).toEqual({ cents: 11900, includesTax: true, rate: DE });
  });

  it('another EU country pays the net price plus its own VAT (€119.00 → €100.00 → €120.00 / €117.00)', () => {
    expect(unitPrice(11900, ctx({ rate: FR }))).toEqual({ cents: 12000, includesTax: true, rate: FR });
    expect(unitPrice(11900, ctx({ rate: LU }))).toEqual({ cents: 11700, includesTax: true, rate: LU });
  });

  it('a destination without VAT pays the net price', () => {
    expect(unitPrice(11900, ctx({ rate: null }))).toEqual({ cents: 10000, includesTax: true, rate: null });
  });

  it('a reverse-charged business pays the net price, without VAT', () => {
    expect(unitPrice(11900, ctx({ rate: FR, vatExempt: true }))).toEqual({
      cents: 10000,
      includesTax: false,
      rate: null,
    });
  });

  it('rounds the destination price half up to the cent (€12.50 → 12.6050… → €12.61; €9.99 → 8.3949… → €8.39)', () => {
    expect(unitPrice(1250, ctx({ rate: FR })).cents).toBe(1261);
    expect(unitPrice(999, ctx({ rate: null })).cents).toBe(839);
    expect(unitPrice(999, ctx({ rate: FR })).cents).toBe(1007);
  });

  it('with non-base prices not adjusted, every destination pays the entered gross price with its own VAT in it', () => {
    const fixed = ctx({ adjustNonBaseLocationPrices: false, rate: FR });
    expect(unitPrice(11900, fixed)).toEqual({ cents: 11900, includesTax: true, rate: FR });
    // WooCommerce then takes the destination's VAT off for an exempt business.
    expect(unitPrice(12000, { ...fixed, vatExempt: true }).cents).toBe(10000);
  });

  it('prices entered without tax stay net; the tax is added on top', () => {
    expect(unitPrice(10000, ctx({ pricesIncludeTax: false, rate: FR }))).toEqual({
      cents: 10000,
      includesTax: false,
      rate: FR,
    });
    expect(unitPrice(10000, ctx({ pricesIncludeTax: false, rate: FR, vatExempt: true })).rate).toBeNull();
  });

  it('shows a price with or without its tax', () => {
    expect(displayedUnitPrice(unitPrice(11900, ctx()), 'incl')).toBe(11900);
    expect(displayedUnitPrice(unitPrice(11900, ctx()), 'excl')).toBe(10000);
    expect(displayedUnitPrice(unitPrice(10000, ctx({ pricesIncludeTax: false })), 'incl')).toBe(11900);
    expect(displayedUnitPrice(unitPrice(10000, ctx({ pricesIncludeTax: false })), 'excl')).toBe(10000);
  });
});

describe('a line’s tax, rounded per line', () => {
  it('takes the VAT out of a gross line and keeps the gross amount whole', () => {
    expect(lineTax(11900, 0, { includesTax: true, rate: DE })).toEqual({
      subtotalNetCents: 10000,
      subtotalTaxCents: 1900,
      totalNetCents: 10000,
      totalTaxCents: 1900,
    });
    // 37.50 × 19/119 = 5.9874 → 5.99; net 31.51.
    expect(lineTax(3750, 0, { includesTax: true, rate: DE })).toMatchObject({
      subtotalNetCents: 3151,
      subtotalTaxCents: 599,
    });
  });

  it('rounds an exact half cent up, and the net is the gross less the rounded VAT', () => {
    // 37.83 / 6 = 6.305 exactly.
    expect(taxIncludedIn(3783, FR)).toBe(631);
    expect(lineTax(3783, 0, { includesTax: true, rate: FR })).toMatchObject({
      subtotalNetCents: 3152,
      subtotalTaxCents: 631,
    });
  });

  it('discounts the gross price, then takes the VAT out of what is left', () => {
    // €119.00 less a €10.00 coupon: €109.00, of which 17.40 VAT (17.403).
    expect(lineTax(11900, 1000, { includesTax: true, rate: DE })).toEqual({
      subtotalNetCents: 10000,
      subtotalTaxCents: 1900,
      totalNetCents: 9160,
      totalTaxCents: 1740,
    });
  });

  it('adds the VAT to a net line', () => {
    expect(lineTax(14970, 0, { includesTax: false, rate: DE })).toMatchObject({ subtotalTaxCents: 2844 });
    expect(lineTax(10000, 0, { includesTax: false, rate: null })).toMatchObject({
      subtotalTaxCents: 0,
      totalNetCents: 10000,
    });
  });

  it('rounds per line, not at the subtotal (WooCommerce’s default)', () => {
    // Three lines of €0.50 at 19%: 0.0798 each → 0.08 × 3 = 0.24; rounded at the subtotal it would be 0.24 too,
    // but three lines of €0.10 (0.01597 → 0.02 each) add up to 0.06 where the subtotal would give 0.05.
    const tenCents = lineTax(10, 0, { includesTax: true, rate: DE }).subtotalTaxCents;
    expect(tenCents).toBe(2);
    expect(3 * tenCents).toBe(6);
    expect(taxIncludedIn(30, DE)).toBe(5);
  });
});

describe('the reverse charge', () => {
  const settings = loadCommerceSettings({});
  const check = (vatId: string, country: string): VatCheck => ({
    vatId,
    country,
    status: 'valid',
    checkedAt: new Date().toISOString(),
    reason: null,
    name: null,
    address: null,
    requestDate: null,
    requestIdentifier: null,
  });
  const business = (vatId: string, country: string) => ({ billing: { country, vatId }, vat: check(vatId, country) });

  it('applies to a business of another EU country buying for another EU country', () => {
    expect(reverseChargeApplies(settings, business('FR40303265045', 'FR'), 'FR')).toBe(true);
    expect(reverseChargeApplies(settings, business('FR40303265045', 'FR'), 'IT')).toBe(true);
  });

  it('not to a business of the shop’s country, nor for goods staying in it, nor outside the EU', () => {
    expect(reverseChargeApplies(settings, business('DE136695976', 'DE'), 'DE')).toBe(false);
    expect(reverseChargeApplies(settings, business('FR40303265045', 'FR'), 'DE')).toBe(false);
    expect(reverseChargeApplies(settings, business('FR40303265045', 'FR'), 'CH')).toBe(false);
  });

  it('only for the VAT ID and billing country the check was made for', () => {
    expect(
      reverseChargeApplies(
        settings,
        { billing: { country: 'FR', vatId: 'FR83404833048' }, vat: check('FR40303265045', 'FR') },
        'FR',
      ),
    ).toBe(false);
    expect(
      reverseChargeApplies(
        settings,
        { billing: { country: 'BE', vatId: 'FR40303265045' }, vat: check('FR40303265045', 'FR') },
        'FR',
      ),
    ).toBe(false);
    expect(reverseChargeApplies(settings, { billing: { country: 'FR', vatId: '' }, vat: null }, 'FR')).toBe(false);
  });

  it('never when tax is off', () => {
    const off = loadCommerceSettings({ TAX_ENABLED: 'false' });
    expect(reverseChargeApplies(off, business('FR40303265045', 'FR'), 'FR')).toBe(false);
    expect(taxContextFor(off, 'FR', false)).toMatchObject({ rate: null, baseRate: null });
  });
});

describe('the tax settings', () => {
  it("default to WooCommerce's with prices entered and shown including VAT", () => {
    expect(loadCommerceSettings({})).toMatchObject({
      baseCountry: 'DE',
      pricesIncludeTax: true,
      taxDisplayShop: 'incl',
      taxDisplayCart: 'incl',
      adjustNonBaseLocationPrices: true,
    });
  });

  it('take the public shop display setting unless the engine has its own, and refuse other values', () => {
    expect(loadCommerceSettings({ PUBLIC_TAX_DISPLAY_SHOP: 'excl' }).taxDisplayShop).toBe('excl');
    expect(loadCommerceSettings({ PUBLIC_TAX_DISPLAY_SHOP: 'excl', TAX_DISPLAY_SHOP: 'incl' }).taxDisplayShop).toBe(
      'incl',
    );
    expect(() => loadCommerceSettings({ TAX_DISPLAY_CART: 'gross' })).toThrow(/TAX_DISPLAY_CART/);
    expect(() => loadCommerceSettings({ TAX_PRICES_INCLUDE_TAX: 'maybe' })).toThrow(/TAX_PRICES_INCLUDE_TAX/);
  });
});
