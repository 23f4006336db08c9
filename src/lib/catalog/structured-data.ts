/**
 * JSON-LD `Product` structured data for product pages (schema.org, as Google's product snippets read it):
 * offers with price, currency and availability — the price the page shows, with a price specification
 * saying whether it includes VAT — and aggregateRating when the product has reviews.
 */
import { centsToDecimal, highestRawPrice, lowestRawPrice, parseRawPrices } from '../money.ts';

type StockStatus = 'IN_STOCK' | 'OUT_OF_STOCK' | 'ON_BACKORDER';

/**
 * The product fields the structured data reads: a storefront product (CatalogProduct) fits, and so does
 * what the engine builds for its product heads (`Product.fullYoastHead`), which must not depend on the
 * storefront's GraphQL types. `rawPrice` is a RAW price string ("349", or "10, 15" for a variable product).
 */
export interface JsonLdProduct {
  name?: string | null;
  shortDescription?: string | null;
  description?: string | null;
  sku?: string | null;
  rawPrice?: string | null;
  stockStatus?: StockStatus | null;
  variations?: { nodes?: readonly unknown[] | null } | null;
  reviewCount?: number | null;
  averageRating?: number | null;
}

const AVAILABILITY: Record<StockStatus, string> = {
  IN_STOCK: 'https://schema.org/InStock',
  OUT_OF_STOCK: 'https://schema.org/OutOfStock',
  ON_BACKORDER: 'https://schema.org/BackOrder',
};

export interface StructuredDataContext {
  /** Absolute URL of the product page. */
  url: string;
  /** Absolute URLs of the product's images (main first). */
  images?: string[];
  currency?: string;
  brand?: string;
  /** Whether the prices include VAT (the shop's PUBLIC_TAX_DISPLAY_SHOP); default true. */
  pricesIncludeTax?: boolean;
}

function plainText(html: string | null | undefined): string {
  return (html ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

// Generic so a whole product (any extra fields) may be passed as written.
export function buildProductJsonLd<P extends JsonLdProduct>(
  product: P,
  context: StructuredDataContext,
): Record<string, unknown> {
  const currency = context.currency ?? 'EUR';
  const valueAddedTaxIncluded = context.pricesIncludeTax ?? true;
  const availability = AVAILABILITY[product.stockStatus ?? 'IN_STOCK'] ?? AVAILABILITY.IN_STOCK;
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name ?? '',
    url: context.url,
  };
  const description = plainText(product.shortDescription) || plainText(product.description);
  if (description) data.description = description;
  if (product.sku) data.sku = product.sku;
  if (context.images?.length) data.image = context.images;
  if (context.brand) data.brand = { '@type': 'Brand', name: context.brand };

  const prices = parseRawPrices(product.rawPrice);
  if (prices.length > 1) {
    data.offers = {
      '@type': 'AggregateOffer',
      priceCurrency: currency,
      lowPrice: centsToDecimal(lowestRawPrice(product.rawPrice) as number),
      highPrice: centsToDecimal(highestRawPrice(product.rawPrice) as number),
      offerCount: product.variations?.nodes?.length || prices.length,
      availability,
      url: context.url,
      priceSpecification: {
        '@type': 'PriceSpecification',
        priceCurrency: currency,
        minPrice: centsToDecimal(lowestRawPrice(product.rawPrice) as number),
        maxPrice: centsToDecimal(highestRawPrice(product.rawPrice) as number),
        valueAddedTaxIncluded,
      },
    };
  } else if (prices.length === 1) {
    data.offers = {
      '@type': 'Offer',
      priceCurrency: currency,
      price: centsToDecimal(prices[0]),
      availability,
      url: context.url,
      priceSpecification: {
        '@type': 'UnitPriceSpecification',
        priceCurrency: currency,
        price: centsToDecimal(prices[0]),
        valueAddedTaxIncluded,
      },
    };
  }
  if ((product.reviewCount ?? 0) > 0 && (product.averageRating ?? 0) > 0) {
    data.aggregateRating = {
      '@type': 'AggregateRating',
      ratingValue: Number(product.averageRating),
      reviewCount: product.reviewCount,
      bestRating: 5,
      worstRating: 1,
    };
  }
  return data;
}

/** JSON for a `<script type="application/ld+json">`: '<' is escaped so text cannot close the script. */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
