/**
 * A product page's `<head>` tags as one HTML string, for storefronts that take the head from the API
 * (WooGraphQL's `Product.fullYoastHead`): title, meta description, canonical link, OpenGraph and product
 * price tags, and the JSON-LD Product of src/lib/catalog/structured-data.ts. Every attribute value and the
 * title are HTML-escaped (quotes included, so no value can leave its attribute); the JSON-LD is escaped
 * so no text can close its script.
 */
import { serializeJsonLd } from './structured-data.ts';

export interface ProductHeadInput {
  /** The page title, site name included ("Omni antenna - Meshfront"). */
  title: string;
  description: string;
  /** Absolute canonical URL of the product page (also og:url). */
  url: string;
  siteName: string;
  /** WordPress-style locale of the page (en_US), for og:locale. */
  locale: string;
  /** The main image, with an absolute URL. */
  image: { url: string; width?: number | null; height?: number | null; alt?: string | null } | null;
  /** The (lowest) price as the page shows it, e.g. { amount: "349.00", currency: "EUR" }. */
  price: { amount: string; currency: string } | null;
  availability: 'IN_STOCK' | 'OUT_OF_STOCK' | 'ON_BACKORDER';
  /** The JSON-LD object (buildProductJsonLd). */
  jsonLd: unknown;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** OpenGraph's product:availability values. */
const OG_AVAILABILITY: Record<ProductHeadInput['availability'], string> = {
  IN_STOCK: 'in stock',
  OUT_OF_STOCK: 'out of stock',
  ON_BACKORDER: 'available for order',
};

export function productHeadHtml(input: ProductHeadInput): string {
  const meta = (key: 'name' | 'property', name: string, content: string | number | null | undefined) =>
    content === null || content === undefined || content === ''
      ? null
      : `<meta ${key}="${escapeHtml(name)}" content="${escapeHtml(String(content))}" />`;
  const lines = [
    `<title>${escapeHtml(input.title)}</title>`,
    meta('name', 'description', input.description),
    `<link rel="canonical" href="${escapeHtml(input.url)}" />`,
    meta('property', 'og:locale', input.locale),
    meta('property', 'og:type', 'product'),
    meta('property', 'og:title', input.title),
    meta('property', 'og:description', input.description),
    meta('property', 'og:url', input.url),
    meta('property', 'og:site_name', input.siteName),
    meta('property', 'og:image', input.image?.url),
    meta('property', 'og:image:width', input.image?.url ? input.image.width : null),
    meta('property', 'og:image:height', input.image?.url ? input.image.height : null),
    meta('property', 'og:image:alt', input.image?.url ? input.image.alt : null),
    meta('property', 'product:price:amount', input.price?.amount),
    meta('property', 'product:price:currency', input.price?.currency),
    meta('property', 'product:availability', OG_AVAILABILITY[input.availability]),
    meta('name', 'twitter:card', input.image?.url ? 'summary_large_image' : 'summary'),
    `<script type="application/ld+json">${serializeJsonLd(input.jsonLd)}</script>`,
  ];
  return lines.filter((l): l is string => l !== null).join('\n');
}
