// The hideBillingAddressForVirtualProducts setting has two sides that must agree: the prebuilt checkout
// page (src/lib/config/store.ts) and the engine (src/server/shop/settings.ts). One public variable
// switches both; the engine's own variable wins for an engine run apart from the site.
import { describe, expect, it } from 'vitest';
import { loadStoreSettings } from '../../src/lib/config/store.ts';
import { loadCommerceSettings } from '../../src/server/shop/settings.ts';

describe('PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL', () => {
  it('is off by default on both sides', () => {
    expect(loadStoreSettings({}).hideBillingAddressForVirtualProducts).toBe(false);
    expect(loadCommerceSettings({}).hideBillingForVirtual).toBe(false);
  });

  it('switches the checkout page and the engine together', () => {
    const env = { PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL: 'true' };
    expect(loadStoreSettings(env).hideBillingAddressForVirtualProducts).toBe(true);
    expect(loadCommerceSettings(env).hideBillingForVirtual).toBe(true);
  });

  it('CHECKOUT_HIDE_BILLING_FOR_VIRTUAL decides for the engine when set', () => {
    expect(
      loadCommerceSettings({
        PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL: 'true',
        CHECKOUT_HIDE_BILLING_FOR_VIRTUAL: 'false',
      }).hideBillingForVirtual,
    ).toBe(false);
    expect(loadCommerceSettings({ CHECKOUT_HIDE_BILLING_FOR_VIRTUAL: 'true' }).hideBillingForVirtual).toBe(true);
  });

  it('refuses a value that is not a yes/no', () => {
    expect(() => loadStoreSettings({ PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL: 'maybe' })).toThrow();
    expect(() => loadCommerceSettings({ PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL: 'maybe' })).toThrow();
  });
});
