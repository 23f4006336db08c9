/**
 * Public store settings: safe to ship to the browser. Values come from PUBLIC_* environment
 * variables where an operator may want to change them, otherwise they are the shop's decided
 * behaviour. Server secrets live in src/server/config.ts, never here.
 */
import { z } from 'zod';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));

const csv = (fallback: string[]) =>
  z
    .string()
    .optional()
    .transform((v) =>
      v === undefined
        ? fallback
        : v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
    );

const url = (fallback: string) =>
  z
    .string()
    .url()
    .optional()
    .transform((v) => v ?? fallback);

export const publicEnvSchema = z.object({
  PUBLIC_SITE_URL: url('http://localhost:4321'),
  PUBLIC_SITE_NAME: z.string().min(1).default('Meshfront'),
  PUBLIC_LOGO: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  PUBLIC_MAIN_COLOR: z.enum(['primary', 'secondary']).default('primary'),
  PUBLIC_SUPPORT_EMAIL: z.string().email().default('support@meshfront.example'),
  PUBLIC_DASHBOARD_URL: url('https://dashboard.meshfront.example'),
  PUBLIC_EXPLORER_URL: url('https://explorer.meshfront.example'),
  PUBLIC_API_BASE: z.string().default('/graphql'),
  PUBLIC_PRODUCTS_PER_PAGE: z.coerce.number().int().min(1).max(100).default(24),
  PUBLIC_CANONICAL_LOWERCASE: bool(true),
  // Query parameters that change what a page shows and so belong in its canonical URL.
  PUBLIC_CANONICAL_QUERY_PARAMS: csv(['page', 'category', 'search', 'orderby', 'order', 'filter']),
  // The checkout asks only for names and e-mail when every item is virtual (the engine reads the same
  // variable unless CHECKOUT_HIDE_BILLING_FOR_VIRTUAL says otherwise).
  PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL: bool(false),
  // Catalog prices are shown including VAT ('incl') or without it ('excl'): the note beside every price and
  // the structured data say so (the engine reads the same variable unless TAX_DISPLAY_SHOP says otherwise).
  PUBLIC_TAX_DISPLAY_SHOP: z.enum(['incl', 'excl']).default('incl'),
});

function rawEnv(): Record<string, string | undefined> {
  // Vite/Astro replace import.meta.env at build time; plain Node (scripts, tests) has process.env.
  const viteEnv = (import.meta as unknown as { env?: Record<string, string | undefined> }).env;
  const nodeEnv = typeof process !== 'undefined' ? process.env : {};
  return { ...nodeEnv, ...(viteEnv ?? {}) };
}

export function loadStoreSettings(env: Record<string, string | undefined> = rawEnv()) {
  const pub = publicEnvSchema.parse(env);
  return {
    siteUrl: pub.PUBLIC_SITE_URL,
    siteName: pub.PUBLIC_SITE_NAME,
    logo: pub.PUBLIC_LOGO,
    mainColor: pub.PUBLIC_MAIN_COLOR,
    supportEmail: pub.PUBLIC_SUPPORT_EMAIL,
    dashboardUrl: pub.PUBLIC_DASHBOARD_URL,
    explorerUrl: pub.PUBLIC_EXPLORER_URL,
    publicApiBase: pub.PUBLIC_API_BASE,
    productsPerPage: pub.PUBLIC_PRODUCTS_PER_PAGE,
    defaultDescription: 'A Proof-of-Network-Participation Crypto Project proudly built on Kadena',
    canonical: { lowercasePath: pub.PUBLIC_CANONICAL_LOWERCASE, queryWhitelist: pub.PUBLIC_CANONICAL_QUERY_PARAMS },
    autoOpenCart: false,
    showReviews: true,
    showFilters: true,
    showOrderByDropdown: true,
    showSKU: true,
    showRelatedProducts: true,
    showProductCategoriesOnSingleProduct: true,
    showBreadcrumbOnSingleProduct: true,
    showMoveToWishlist: true,
    hideBillingAddressForVirtualProducts: pub.PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL,
    taxDisplayShop: pub.PUBLIC_TAX_DISPLAY_SHOP,
    initStoreOnUserActionToReduceServerLoad: true,
    saleBadge: 'percent' as 'percent' | 'sale' | 'hidden',
    socialLoginsDisplay: 'buttons' as 'buttons' | 'icons',
  } as const;
}

export type StoreSettings = ReturnType<typeof loadStoreSettings>;

export const storeSettings: StoreSettings = loadStoreSettings();
