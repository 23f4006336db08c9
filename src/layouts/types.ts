import type { LocaleCode } from '../lib/i18n/locales';

export type LayoutName = 'default' | 'error' | 'support';

export interface LayoutProps {
  /** Page title; the site name is appended ('%s - Meshfront'). */
  title?: string;
  description?: string;
  /** Defaults to the locale in the URL. */
  locale?: LocaleCode;
  /** Social image path, 1200x675 JPEG. */
  image?: string;
  noindex?: boolean;
  /**
   * Locale-free path this page's canonical URL and hreflang alternates point to, when the same
   * content lives at another URL (e.g. '/policies/privacy-policy' on /privacy-policy).
   */
  canonicalPath?: string;
}

declare global {
  /** Set by astro.config.mjs at build time; the same id is written to /latest-build.json. */
  const __MESHFRONT_BUILD_ID__: string;
}
