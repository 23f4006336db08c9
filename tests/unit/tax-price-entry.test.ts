// The admin's price inputs say whether the amounts typed in include VAT, as the shop's setting
// TAX_PRICES_INCLUDE_TAX takes them.
import { describe, expect, it } from 'vitest';
import { loadCommerceSettings } from '../../src/server/shop/settings.ts';
import { priceEntryTax } from '../../src/server/tax/price-entry.ts';

describe('the price inputs’ tax note', () => {
  it('says incl. VAT by default (prices entered with tax), excl. VAT when they are entered without', () => {
    expect(priceEntryTax(loadCommerceSettings({}))).toEqual({
      note: 'incl. VAT',
      legend: 'Price (euros, including VAT)',
    });
    expect(priceEntryTax(loadCommerceSettings({ TAX_PRICES_INCLUDE_TAX: 'false' }))).toEqual({
      note: 'excl. VAT',
      legend: 'Price (euros, without VAT: it is added at checkout)',
    });
    expect(priceEntryTax(loadCommerceSettings({ TAX_ENABLED: 'false' })).note).toBeNull();
  });
});
