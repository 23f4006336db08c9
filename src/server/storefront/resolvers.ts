/**
 * The shop as WooGraphQL storefronts read it at build time (schema/storefront.ts): WPGraphQL's
 * `generalSettings` and `allSettings`, the WooNuxt settings plugin's `woonuxtSettings`, and each product's
 * head (`fullYoastHead`). Every value comes from the engine's settings and catalog; nothing secret is
 * handed out (the Stripe key is the publishable one).
 */
import type { GraphQLResolveInfo } from 'graphql';
import { canonicalUrl } from '../../lib/canonical.ts';
import { productHeadHtml } from '../../lib/catalog/product-head.ts';
import { metaDescription, plainText } from '../../lib/catalog/seo-text.ts';
import { buildProductJsonLd } from '../../lib/catalog/structured-data.ts';
import { DEFAULT_LOCALE, localeByCode, localePrefix } from '../../lib/i18n/locales.ts';
import { centsToDecimal } from '../../lib/money.ts';
import { imageUrl } from '../catalog/media-url.ts';
import { formatRaw } from '../catalog/money.ts';
import { productPrice, productStockStatus, variationPrice } from '../catalog/pricing.ts';
import { shownPriceFor } from '../catalog/shopper-prices.ts';
import type { ProductModel } from '../catalog/snapshot.ts';
import { localized } from '../catalog/translations.ts';
import type { GraphQLContext } from '../context.ts';
import { baseTaxContext } from '../tax/location.ts';
import { displayedUnitPrice, unitPrice } from '../tax/prices.ts';
import { numberFormat } from '../../lib/intl-formatters.ts';

type Ctx = GraphQLContext;

/** The catalog's stock statuses as the API's StockStatusEnum spells them. */
const STOCK_STATUS = { instock: 'IN_STOCK', outofstock: 'OUT_OF_STOCK', onbackorder: 'ON_BACKORDER' } as const;

/**
 * The time zone of the API's dates: WPGraphQL-style dates are given in UTC without an offset
 * (catalog/resolvers.ts wpDate).
 */
const API_TIME_ZONE = 'UTC';

/**
 * How the shop's own filter panel shows a global attribute (src/islands/catalog/FilterPanel.tsx): every
 * group open, each term's product count beside it, terms without products still listed.
 */
const FILTER_DISPLAY = { showCount: true, hideEmpty: false, openByDefault: true } as const;

function general(ctx: Ctx) {
  const s = ctx.storefront;
  return {
    title: s.siteName,
    description: s.description,
    url: s.siteUrl,
    language: DEFAULT_LOCALE.code,
    timezone: API_TIME_ZONE,
  };
}

function currencySymbol(currency: string): string {
  const part = numberFormat('en', { style: 'currency', currency })
    .formatToParts(0)
    .find((p) => p.type === 'currency');
  return part?.value ?? currency;
}

/** Every published product's and variation's price as the catalog shows it to an unknown shopper. */
async function highestPriceCents(ctx: Ctx): Promise<number> {
  const settings = ctx.cart.settings;
  const base = baseTaxContext(settings);
  const shown = (cents: number) => displayedUnitPrice(unitPrice(cents, base), settings.taxDisplayShop);
  let max = 0;
  for (const p of (await ctx.catalog.snapshot()).products) {
    if (p.status !== 'publish') continue;
    const prices = p.type === 'variable' ? p.variations.map((v) => variationPrice(v)) : [productPrice(p)];
    for (const cents of prices) if (cents !== null && cents > 0) max = Math.max(max, shown(cents));
  }
  return max;
}

/** An absolute http(s) URL from a client argument without a trailing slash, or null when it is none. */
function originArgument(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

type HeadArgs = { frontendUrl?: string | null; imageUrl?: string | null; sanitize?: boolean | null };

async function fullYoastHead(p: ProductModel, args: HeadArgs, ctx: Ctx, info: GraphQLResolveInfo) {
  const s = ctx.storefront;
  const locale = localeByCode(ctx.locale) ?? DEFAULT_LOCALE;
  const name = localized(p.name, p.translations, ctx.locale, 'name');
  const shortDescription = localized(p.shortDescription, p.translations, ctx.locale, 'shortDescription');
  const description = localized(p.description, p.translations, ctx.locale, 'description');
  // The product page's canonical URL as the site writes it; a storefront on another origin names its own.
  const site = originArgument(args.frontendUrl) ?? s.siteUrl;
  const url = canonicalUrl(`${localePrefix(locale)}/product/${p.slug}`, `${site}/`, s.canonical);
  const mediaBase = originArgument(args.imageUrl) ?? s.mediaBaseUrl;
  const images = [p.image, ...p.gallery].filter((i) => i !== null).map((i) => imageUrl(i.file, mediaBase));

  const shown = await shownPriceFor(ctx, info);
  const prices = (p.type === 'variable' ? p.variations.map((v) => variationPrice(v)) : [productPrice(p)])
    .filter((c): c is number => c !== null && c > 0)
    .map(shown)
    .sort((a, b) => a - b);
  const currency = ctx.cart.settings.currency;
  const stockStatus = STOCK_STATUS[productStockStatus(p)];
  const jsonLd = buildProductJsonLd(
    {
      name,
      shortDescription,
      description,
      sku: p.sku || null,
      rawPrice: prices.length ? prices.map(formatRaw).join(', ') : null,
      stockStatus,
      variations: p.type === 'variable' ? { nodes: p.variations } : null,
      reviewCount: p.reviewCount,
      averageRating: p.averageRating,
    },
    // The prices above are shown as TAX_DISPLAY_SHOP says; the structured data says which.
    { url, images, currency, brand: s.siteName, pricesIncludeTax: ctx.cart.settings.taxDisplayShop === 'incl' },
  );
  return productHeadHtml({
    title: `${name} - ${s.siteName}`,
    description: metaDescription(plainText(shortDescription) || plainText(description)),
    url,
    siteName: s.siteName,
    locale: locale.code,
    image: p.image
      ? { url: images[0] as string, width: p.image.width, height: p.image.height, alt: p.image.altText || name }
      : null,
    price: prices.length ? { amount: centsToDecimal(prices[0] as number), currency } : null,
    availability: stockStatus,
    jsonLd,
  });
}

const productHead = { fullYoastHead };

export const storefrontResolvers = {
  RootQuery: {
    generalSettings: (_: unknown, __: unknown, ctx: Ctx) => general(ctx),
    allSettings: (_: unknown, __: unknown, ctx: Ctx) => {
      const g = general(ctx);
      return {
        generalSettingsTitle: g.title,
        generalSettingsDescription: g.description,
        generalSettingsUrl: g.url,
        generalSettingsLanguage: g.language,
        generalSettingsTimezone: g.timezone,
        readingSettingsPostsPerPage: ctx.storefront.productsPerPage,
      };
    },
    woonuxtSettings: async (_: unknown, __: unknown, ctx: Ctx) => {
      const s = ctx.storefront;
      const snapshot = await ctx.catalog.snapshot();
      const stripe = s.stripe;
      const key = stripe.enabled ? stripe.publishableKey : null;
      const currency = ctx.cart.settings.currency;
      return {
        primary_color: s.primaryColor,
        logo: s.logo,
        maxPrice: Math.ceil((await highestPriceCents(ctx)) / 100),
        productsPerPage: s.productsPerPage,
        frontEndUrl: s.frontendUrl,
        domain: new URL(s.siteUrl).hostname,
        global_attributes: snapshot.attributes
          .filter((a) => a.terms.length > 0)
          .map((a) => ({
            label: localized(a.name, a.translations, ctx.locale, 'name'),
            slug: a.slug,
            ...FILTER_DISPLAY,
          })),
        publicIntrospectionEnabled: ctx.config.introspection ? 'on' : 'off',
        stripeSettings: {
          enabled: stripe.enabled ? 'yes' : 'no',
          testmode: stripe.testMode ? 'yes' : 'no',
          test_publishable_key: stripe.testMode ? key : null,
          publishable_key: stripe.testMode ? null : key,
          active_publishable_key: key,
          account_id: null,
          apple_pay_merchant_identifier: null,
        },
        currencyCode: currency,
        currencySymbol: currencySymbol(currency),
        wooNuxtSEO: s.socialLinks,
      };
    },
  },
  SimpleProduct: productHead,
  VariableProduct: productHead,
  ExternalProduct: productHead,
  GroupProduct: productHead,
};
