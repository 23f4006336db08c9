/**
 * Shipping zones by country (domestic, EU, rest of the world by default — see shop/settings.ts) and
 * the rates a cart gets for an address: flat rate, free shipping above a threshold (or with a
 * free-shipping coupon), local pickup. Rate ids are WooCommerce's `<method>:<instance>` ("flat_rate:1").
 */
import type { CommerceSettings, ShippingZoneSetting } from '../shop/settings.ts';

export type ShippingRate = { id: string; methodId: string; instanceId: number; label: string; costCents: number };

export function zoneFor(settings: CommerceSettings, country: string): ShippingZoneSetting | null {
  return (
    settings.zones.find((z) => z.countries.includes(country)) ??
    settings.zones.find((z) => z.countries.length === 0) ??
    null
  );
}

/**
 * Rates for one package. `subtotalCents` is the package's subtotal after discounts, before tax (what
 * WooCommerce's free-shipping minimum compares with when discounts are not ignored).
 */
export function ratesFor(
  settings: CommerceSettings,
  country: string,
  subtotalCents: number,
  hasFreeShippingCoupon: boolean,
): ShippingRate[] {
  const zone = zoneFor(settings, country);
  if (!zone) return [];
  const out: ShippingRate[] = [];
  for (const m of zone.methods) {
    const id = `${m.methodId}:${m.instanceId}`;
    if (m.methodId === 'free_shipping') {
      const byAmount = m.minAmountCents !== null && subtotalCents >= m.minAmountCents;
      const byCoupon = m.allowCoupon && hasFreeShippingCoupon;
      if (byAmount || byCoupon)
        out.push({ id, methodId: m.methodId, instanceId: m.instanceId, label: m.label, costCents: 0 });
    } else out.push({ id, methodId: m.methodId, instanceId: m.instanceId, label: m.label, costCents: m.costCents });
  }
  return out;
}
