/**
 * Settings of buying (cart, shipping, tax, checkout), read from the environment and validated with zod.
 * They sit below every domain that reads them, so none of those domains imports another for its settings.
 *
 *   SHOP_BASE_COUNTRY              the shop's country (default DE): the "domestic" shipping zone, and the
 *                                  address used for shipping and tax before the customer gives one.
 *   SHOP_CURRENCY                  ISO currency of every amount (default EUR; the catalog is in EUR).
 *   TAX_ENABLED                    true/false (default true): charge tax.
 *   TAX_RATES                      JSON object country → rate in percent as a decimal string, merged over
 *                                  the defaults (every EU member state's standard VAT rate; no tax outside
 *                                  the EU). E.g. {"CH":"8.1","DE":"19"}; "0" removes a country's tax.
 *   TAX_PRICES_INCLUDE_TAX         true/false (default true): catalog prices are entered including the base
 *                                  country's tax (WooCommerce's woocommerce_prices_include_tax). Shipping
 *                                  costs are always entered without tax, as WooCommerce's flat rates.
 *   TAX_DISPLAY_SHOP               incl/excl (default: PUBLIC_TAX_DISPLAY_SHOP, else incl): catalog prices
 *                                  shown with or without tax (woocommerce_tax_display_shop). The storefront
 *                                  labels its prebuilt prices by PUBLIC_TAX_DISPLAY_SHOP, so on one machine
 *                                  that one setting switches both.
 *   TAX_DISPLAY_CART               incl/excl (default incl): cart, checkout and order amounts shown with or
 *                                  without tax (woocommerce_tax_display_cart).
 *   TAX_ADJUST_NON_BASE_LOCATION_PRICES  true/false (default true): with prices entered including tax,
 *                                  another destination pays the net price plus its own tax (WooCommerce's
 *                                  woocommerce_adjust_non_base_location_prices filter); false keeps the
 *                                  gross price the same everywhere.
 *   SHIPPING_ZONES                 JSON array replacing the default zones (see shipping/zones.ts for the shape).
 *   SHIPPING_DOMESTIC_FLAT_RATE    domestic flat rate without tax (default "4.12": €4.90 with Germany's 19%,
 *                                  the domestic price the shop's customers see)
 *   SHIPPING_DOMESTIC_FREE_ABOVE   domestic free shipping from this subtotal (default "50.00")
 *   SHIPPING_EU_FLAT_RATE          EU flat rate (default "9.90")
 *   SHIPPING_EU_FREE_ABOVE         EU free shipping from this subtotal (default "100.00")
 *   SHIPPING_WORLD_FLAT_RATE       rest-of-world flat rate (default "24.90")
 *   SHIPPING_LOCAL_PICKUP          true/false (default true): offer local pickup in the domestic zone.
 *   HOLD_STOCK_MINUTES             unpaid pending orders are cancelled and their stock restored after this
 *                                  many minutes (default 60, as WooCommerce; 0 = never).
 *   ORDER_SWEEP_INTERVAL_MS        how often each process looks for such orders (default 60000; 0 = off).
 *   CHECKOUT_HIDE_BILLING_FOR_VIRTUAL  true/false (default: PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL, else
 *                                  false): billing address fields (other than names and e-mail) are not
 *                                  required when every item is virtual. The storefront's checkout hides
 *                                  them by PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL (src/lib/config/store.ts),
 *                                  so on one machine that one setting switches both.
 *   COD_ENABLED                    true/false (default true): offer cash on delivery.
 *   CHECKOUT_ORDERS_PER_IP_PER_HOUR    orders one client address (an IPv6 /64) may place per sliding hour,
 *                                  guests and customers alike (default 10). Only placed orders count.
 *   CHECKOUT_ORDERS_PER_EMAIL_PER_HOUR orders per billing e-mail address (compared in lower case) per
 *                                  sliding hour (default 5): each one sends a confirmation mail there.
 *   CART_MAX_LINE_QUANTITY         most units of one cart item (product or variation) in one order
 *                                  (default 100).
 *   CART_MAX_QUANTITY              most units in one cart / order, all items together (default 500).
 */
import { z } from 'zod';
import { parseMoney } from '../catalog/money.ts';
import { ALL_COUNTRIES } from '../geo/countries.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));
const money = z
  .string()
  .regex(/^\d{1,7}(?:\.\d{1,2})?$/, 'a decimal amount such as "4.90"')
  .transform(parseMoney);
const country = z.string().refine((c) => ALL_COUNTRIES.includes(c), 'an ISO 3166-1 alpha-2 country code');
const percent = z.string().regex(/^\d{1,2}(?:\.\d{1,2})?$/, 'a percentage such as "19" or "8.1"');
const taxDisplay = z.enum(['incl', 'excl']);

export class CommerceSettingsError extends Error {
  override name = 'CommerceSettingsError';
}

export type ShippingMethodSetting =
  | { instanceId: number; methodId: 'flat_rate'; label: string; costCents: number }
  | {
      instanceId: number;
      methodId: 'free_shipping';
      label: string;
      minAmountCents: number | null;
      allowCoupon: boolean;
    }
  | { instanceId: number; methodId: 'local_pickup'; label: string; costCents: number };

export type ShippingZoneSetting = {
  name: string;
  /** Country codes; an empty list is the "rest of the world" zone (matches everything, keep it last). */
  countries: string[];
  methods: ShippingMethodSetting[];
};

const zoneSchema = z.array(
  z.object({
    name: z.string().min(1),
    countries: z.array(country),
    methods: z.array(
      z.discriminatedUnion('methodId', [
        z.object({
          instanceId: z.number().int().positive(),
          methodId: z.literal('flat_rate'),
          label: z.string().default('Flat rate'),
          cost: money,
        }),
        z.object({
          instanceId: z.number().int().positive(),
          methodId: z.literal('free_shipping'),
          label: z.string().default('Free shipping'),
          minAmount: money.optional(),
          allowCoupon: z.boolean().default(true),
        }),
        z.object({
          instanceId: z.number().int().positive(),
          methodId: z.literal('local_pickup'),
          label: z.string().default('Local pickup'),
          cost: money.default(0),
        }),
      ]),
    ),
  }),
);

const envSchema = z.object({
  SHOP_BASE_COUNTRY: country.default('DE'),
  SHOP_CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .default('EUR'),
  TAX_ENABLED: bool.default(true),
  TAX_RATES: z.string().optional(),
  TAX_PRICES_INCLUDE_TAX: bool.default(true),
  TAX_DISPLAY_SHOP: taxDisplay.optional(),
  PUBLIC_TAX_DISPLAY_SHOP: taxDisplay.default('incl'),
  TAX_DISPLAY_CART: taxDisplay.default('incl'),
  TAX_ADJUST_NON_BASE_LOCATION_PRICES: bool.default(true),
  SHIPPING_ZONES: z.string().optional(),
  // Entered without tax like every shipping cost, so that a German shopper pays €4.12 + €0.78 VAT = €4.90.
  SHIPPING_DOMESTIC_FLAT_RATE: money.default(412),
  SHIPPING_DOMESTIC_FREE_ABOVE: money.default(5000),
  SHIPPING_EU_FLAT_RATE: money.default(990),
  SHIPPING_EU_FREE_ABOVE: money.default(10000),
  SHIPPING_WORLD_FLAT_RATE: money.default(2490),
  SHIPPING_LOCAL_PICKUP: bool.default(true),
  HOLD_STOCK_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60)
    .default(60),
  ORDER_SWEEP_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  CHECKOUT_HIDE_BILLING_FOR_VIRTUAL: bool.optional(),
  PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL: bool.default(false),
  COD_ENABLED: bool.default(true),
  // A household or office orders a few times an hour at most; more from one place is a script emptying the
  // stock or sending mail to someone else's address.
  CHECKOUT_ORDERS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
  CHECKOUT_ORDERS_PER_EMAIL_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(5),
  CART_MAX_LINE_QUANTITY: z.coerce.number().int().min(1).max(100_000).default(100),
  CART_MAX_QUANTITY: z.coerce.number().int().min(1).max(1_000_000).default(500),
});

/** Standard VAT rates of the EU member states, in basis points (19% = 1900). */
export const EU_VAT_BASIS_POINTS: Record<string, number> = {
  AT: 2000,
  BE: 2100,
  BG: 2000,
  HR: 2500,
  CY: 1900,
  CZ: 2100,
  DK: 2500,
  EE: 2400,
  FI: 2550,
  FR: 2000,
  DE: 1900,
  GR: 2400,
  HU: 2700,
  IE: 2300,
  IT: 2200,
  LV: 2100,
  LT: 2100,
  LU: 1700,
  MT: 1800,
  NL: 2100,
  PL: 2300,
  PT: 2300,
  RO: 2100,
  SK: 2300,
  SI: 2200,
  ES: 2100,
  SE: 2500,
};
export const EU_COUNTRIES = Object.keys(EU_VAT_BASIS_POINTS);

export type CommerceSettings = {
  baseCountry: string;
  currency: string;
  taxEnabled: boolean;
  /** country → basis points */
  taxRates: Record<string, number>;
  /** TAX_PRICES_INCLUDE_TAX: catalog prices are entered including the base country's tax. */
  pricesIncludeTax: boolean;
  /** TAX_DISPLAY_SHOP: catalog prices shown including ('incl') or excluding ('excl') tax. */
  taxDisplayShop: 'incl' | 'excl';
  /** TAX_DISPLAY_CART: cart, checkout and order amounts shown including or excluding tax. */
  taxDisplayCart: 'incl' | 'excl';
  /** TAX_ADJUST_NON_BASE_LOCATION_PRICES: another destination pays the net price plus its own tax. */
  adjustNonBaseLocationPrices: boolean;
  zones: ShippingZoneSetting[];
  holdStockMinutes: number;
  sweepIntervalMs: number;
  hideBillingForVirtual: boolean;
  codEnabled: boolean;
  /** CHECKOUT_ORDERS_PER_IP_PER_HOUR: placed orders per client address per sliding hour. */
  ordersPerIpPerHour: number;
  /** CHECKOUT_ORDERS_PER_EMAIL_PER_HOUR: placed orders per billing e-mail per sliding hour. */
  ordersPerEmailPerHour: number;
  /** CART_MAX_LINE_QUANTITY: most units of one cart item. */
  maxLineQuantity: number;
  /** CART_MAX_QUANTITY: most units in one cart, all items together. */
  maxCartQuantity: number;
};

const percentToBasisPoints = (p: string) => {
  const [whole, frac = ''] = p.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
};

export function loadCommerceSettings(source: Record<string, string | undefined> = process.env): CommerceSettings {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new CommerceSettingsError(
      `Invalid shop settings:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  }
  const e = parsed.data;
  const taxRates = { ...EU_VAT_BASIS_POINTS };
  if (e.TAX_RATES) {
    let raw: unknown;
    try {
      raw = JSON.parse(e.TAX_RATES);
    } catch {
      throw new CommerceSettingsError('Invalid shop settings:\n  TAX_RATES: not JSON (write it like {"CH":"8.1"})');
    }
    const r = z.record(country, percent).safeParse(raw);
    if (!r.success)
      throw new CommerceSettingsError(
        `Invalid shop settings:\n  TAX_RATES: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    for (const [c, p] of Object.entries(r.data)) taxRates[c] = percentToBasisPoints(p);
  }
  let zones: ShippingZoneSetting[];
  if (e.SHIPPING_ZONES) {
    let raw: unknown;
    try {
      raw = JSON.parse(e.SHIPPING_ZONES);
    } catch {
      throw new CommerceSettingsError('Invalid shop settings:\n  SHIPPING_ZONES: not JSON');
    }
    const r = zoneSchema.safeParse(raw);
    if (!r.success)
      throw new CommerceSettingsError(
        `Invalid shop settings:\n  SHIPPING_ZONES: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    zones = r.data.map((z) => ({
      name: z.name,
      countries: z.countries,
      methods: z.methods.map((m) =>
        m.methodId === 'free_shipping'
          ? {
              instanceId: m.instanceId,
              methodId: m.methodId,
              label: m.label,
              minAmountCents: m.minAmount ?? null,
              allowCoupon: m.allowCoupon,
            }
          : { instanceId: m.instanceId, methodId: m.methodId, label: m.label, costCents: m.cost },
      ),
    }));
  } else {
    // Free shipping is listed first: when a cart qualifies it is the default choice.
    const domestic: ShippingMethodSetting[] = [
      {
        instanceId: 2,
        methodId: 'free_shipping',
        label: 'Free shipping',
        minAmountCents: e.SHIPPING_DOMESTIC_FREE_ABOVE,
        allowCoupon: true,
      },
      { instanceId: 1, methodId: 'flat_rate', label: 'Flat rate', costCents: e.SHIPPING_DOMESTIC_FLAT_RATE },
    ];
    if (e.SHIPPING_LOCAL_PICKUP)
      domestic.push({ instanceId: 3, methodId: 'local_pickup', label: 'Local pickup', costCents: 0 });
    zones = [
      { name: 'Domestic', countries: [e.SHOP_BASE_COUNTRY], methods: domestic },
      {
        name: 'European Union',
        countries: EU_COUNTRIES.filter((c) => c !== e.SHOP_BASE_COUNTRY),
        methods: [
          {
            instanceId: 5,
            methodId: 'free_shipping',
            label: 'Free shipping',
            minAmountCents: e.SHIPPING_EU_FREE_ABOVE,
            allowCoupon: true,
          },
          { instanceId: 4, methodId: 'flat_rate', label: 'Flat rate', costCents: e.SHIPPING_EU_FLAT_RATE },
        ],
      },
      {
        name: 'Rest of the world',
        countries: [],
        methods: [
          { instanceId: 7, methodId: 'free_shipping', label: 'Free shipping', minAmountCents: null, allowCoupon: true },
          {
            instanceId: 6,
            methodId: 'flat_rate',
            label: 'International flat rate',
            costCents: e.SHIPPING_WORLD_FLAT_RATE,
          },
        ],
      },
    ];
  }
  return {
    baseCountry: e.SHOP_BASE_COUNTRY,
    currency: e.SHOP_CURRENCY,
    taxEnabled: e.TAX_ENABLED,
    taxRates,
    pricesIncludeTax: e.TAX_PRICES_INCLUDE_TAX,
    taxDisplayShop: e.TAX_DISPLAY_SHOP ?? e.PUBLIC_TAX_DISPLAY_SHOP,
    taxDisplayCart: e.TAX_DISPLAY_CART,
    adjustNonBaseLocationPrices: e.TAX_ADJUST_NON_BASE_LOCATION_PRICES,
    zones,
    holdStockMinutes: e.HOLD_STOCK_MINUTES,
    sweepIntervalMs: e.ORDER_SWEEP_INTERVAL_MS,
    hideBillingForVirtual: e.CHECKOUT_HIDE_BILLING_FOR_VIRTUAL ?? e.PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL,
    codEnabled: e.COD_ENABLED,
    ordersPerIpPerHour: e.CHECKOUT_ORDERS_PER_IP_PER_HOUR,
    ordersPerEmailPerHour: e.CHECKOUT_ORDERS_PER_EMAIL_PER_HOUR,
    maxLineQuantity: e.CART_MAX_LINE_QUANTITY,
    maxCartQuantity: e.CART_MAX_QUANTITY,
  };
}
