// What a headless WooGraphQL storefront (WooNuxt) reads at build time and on product pages: WPGraphQL's
// `generalSettings`/`allSettings`, the WooNuxt settings plugin's `woonuxtSettings` and `Product.fullYoastHead`,
// all from the engine's own settings and catalog; and media URLs it can load from another origin.
// Third-party documents run where TRUSTED_DOCUMENTS_ONLY is off (the test engine's default, as `npm run dev`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogOperator } from '../../src/server/catalog/operator.ts';
import { createMeshfrontYoga } from '../../src/server/http/yoga.ts';
import { startStripeServer, type StripeStandIn } from '../fixtures/stripe-server.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';
import { productId } from './shop-helpers.ts';

let t: TestEngine;
let stripe: StripeStandIn;
const SITE = 'https://shop.meshfront.test';
const MEDIA = 'https://cdn.meshfront.test/assets';
const SOCIAL = [{ provider: 'x', url: 'https://x.com/meshfront', handle: '@meshfront' }];

beforeAll(async () => {
  stripe = await startStripeServer();
  // Engine settings come from the environment (each test file runs in its own process).
  Object.assign(process.env, stripe.env, {
    PUBLIC_SITE_URL: SITE,
    PUBLIC_SITE_NAME: 'Mesh & "Front"',
    PUBLIC_MAIN_COLOR: 'secondary',
    PUBLIC_PRODUCTS_PER_PAGE: '12',
    MEDIA_BASE_URL: MEDIA,
    STOREFRONT_SOCIAL_LINKS: JSON.stringify(SOCIAL),
    // No background card sweeps against the stand-in.
    ORDER_SWEEP_INTERVAL_MS: '0',
  });
  t = await startTestEngine();
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
  await stripe?.stop();
});

// The documents WooNuxt sends at build time (woonuxt_base/modules/woonuxt-bridge.ts), field for field.
const CORE_SETTINGS = /* GraphQL */ `
  query getWordPressSettings {
    generalSettings { title description }
    allSettings { generalSettingsUrl }
  }
`;
const WOONUXT_SETTINGS = /* GraphQL */ `
  query getWooNuxtSettings {
    woonuxtSettings {
      primary_color
      logo
      publicIntrospectionEnabled
      frontEndUrl
      productsPerPage
      maxPrice
      global_attributes { slug showCount openByDefault label hideEmpty }
      stripeSettings { enabled testmode test_publishable_key publishable_key }
      wooNuxtSEO { provider url handle }
      currencyCode
      currencySymbol
    }
  }
`;

describe('site settings', () => {
  it("answers WooNuxt's WordPress settings query from the site's settings", async () => {
    const r = await t.gql(CORE_SETTINGS);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.generalSettings.title).toBe('Mesh & "Front"');
    expect(r.body.data.generalSettings.description).toMatch(/Kadena/);
    expect(r.body.data.allSettings).toEqual({ generalSettingsUrl: SITE });
  });

  it("is refused with TRUSTED_DOCUMENTS_ONLY (production's default): another storefront's documents need it off", async () => {
    const trusted = createMeshfrontYoga(async () => t.engine, { ...t.config, trustedDocumentsOnly: true });
    const r = await trusted.fetch('http://x/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: CORE_SETTINGS }),
    });
    const body = await r.json();
    expect(body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_ALLOWED');
    expect(body.data ?? null).toBeNull();
  });

  it('gives the language and the time zone of the API and the page size', async () => {
    const d = await t.data(`{
      generalSettings { url language timezone }
      allSettings { generalSettingsTitle generalSettingsLanguage generalSettingsTimezone readingSettingsPostsPerPage }
      woonuxtSettings { domain }
    }`);
    expect(d.woonuxtSettings.domain).toBe('shop.meshfront.test');
    expect(d.generalSettings).toEqual({ url: SITE, language: 'en_US', timezone: 'UTC' });
    expect(d.allSettings).toEqual({
      generalSettingsTitle: 'Mesh & "Front"',
      generalSettingsLanguage: 'en_US',
      generalSettingsTimezone: 'UTC',
      readingSettingsPostsPerPage: 12,
    });
  });

  it("answers WooNuxt's settings query from the engine's settings and catalog", async () => {
    const r = await t.gql(WOONUXT_SETTINGS);
    expect(r.body.errors).toBeUndefined();
    const s = r.body.data.woonuxtSettings;
    expect(s.primary_color).toBe('#00FFAA');
    expect(s.logo).toBeNull();
    expect(s.publicIntrospectionEnabled).toBe('on');
    expect(s.frontEndUrl).toBe(SITE);
    expect(s.productsPerPage).toBe(12);
    expect(s.currencyCode).toBe('EUR');
    expect(s.currencySymbol).toBe('€');
    expect(s.wooNuxtSEO).toEqual(SOCIAL);
    const slugs = s.global_attributes.map((a: { slug: string }) => a.slug);
    expect(slugs).toEqual(expect.arrayContaining(['pa_color', 'pa_size']));
    expect(s.global_attributes.find((a: { slug: string }) => a.slug === 'pa_color')).toEqual({
      slug: 'pa_color',
      label: 'Color',
      showCount: true,
      openByDefault: true,
      hideEmpty: false,
    });
    // The fixture's dearest listed product is €449.00.
    expect(s.maxPrice).toBe(449);
  });

  it('hands out the publishable Stripe key and nothing secret', async () => {
    const r = await t.fetch({
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        query: `{ woonuxtSettings { stripeSettings { enabled testmode test_publishable_key publishable_key active_publishable_key account_id apple_pay_merchant_identifier } } }`,
      }),
    });
    const text = await r.text();
    expect(JSON.parse(text).data.woonuxtSettings.stripeSettings).toEqual({
      enabled: 'yes',
      testmode: 'yes',
      test_publishable_key: stripe.publishableKey,
      publishable_key: null,
      active_publishable_key: stripe.publishableKey,
      account_id: null,
      apple_pay_merchant_identifier: null,
    });
    expect(text).not.toContain(stripe.secretKey);
    expect(text).not.toContain(stripe.webhookSecret);
  });

  it('follows the catalog: maxPrice is the highest price, rounded up', async () => {
    const operator = new CatalogOperator(t.engine.database.db, t.engine.catalog);
    const id = await productId(t, 'bravo-outdoor-gateway');
    const before = (await t.engine.catalog.snapshot()).productsById.get(id);
    await operator.setPrice(id, { regularPriceCents: 123_401, salePriceCents: null });
    try {
      const d = await t.data('{ woonuxtSettings { maxPrice } }');
      expect(d.woonuxtSettings.maxPrice).toBe(1235);
    } finally {
      await operator.setPrice(id, {
        regularPriceCents: before?.regularPriceCents ?? 44_900,
        salePriceCents: before?.salePriceCents ?? null,
      });
    }
    expect((await t.data('{ woonuxtSettings { maxPrice } }')).woonuxtSettings.maxPrice).toBe(449);
  });
});

/** The head as WooNuxt reads it (woonuxt_base/app/composables/useYoastHead.ts): regular expressions over the HTML. */
function parseHead(html: string) {
  const meta = new Map<string, string>();
  for (const m of html.matchAll(/<meta\b([^>]*)>/gi)) {
    const attrs = m[1] ?? '';
    const key = /(?:name|property)=["']([^"']+)["']/i.exec(attrs)?.[1];
    const content = /content=["']([^"']+)["']/i.exec(attrs)?.[1];
    if (key && content) meta.set(key, content);
  }
  const links = [...html.matchAll(/<link\b([^>]*)>/gi)].map((m) => ({
    rel: /rel=["']([^"']+)["']/i.exec(m[1] ?? '')?.[1],
    href: /href=["']([^"']+)["']/i.exec(m[1] ?? '')?.[1],
  }));
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map((m) => m[2] ?? '');
  return {
    title: /<title>([\s\S]*?)<\/title>/i.exec(html)?.[1],
    meta,
    canonical: links.find((l) => l.rel === 'canonical')?.href,
    jsonLd: scripts.map((s) => JSON.parse(s)),
  };
}

// WooNuxt's product page document (woonuxt_base/app/queries/getProduct.gql), trimmed to the head.
const GET_PRODUCT = /* GraphQL */ `
  query getProduct($slug: ID!, $frontEndUrl: String = "") {
    product(id: $slug, idType: SLUG) {
      name
      fullYoastHead(sanitize: true, frontendUrl: $frontEndUrl)
    }
  }
`;

async function head(slug: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const r = await t.gql(GET_PRODUCT, { slug, ...variables }, headers);
  expect(r.body.errors).toBeUndefined();
  return { html: r.body.data.product.fullYoastHead as string, ...parseHead(r.body.data.product.fullYoastHead) };
}

describe('Product.fullYoastHead', () => {
  it("is the product page's title, description, canonical link, OpenGraph tags and JSON-LD", async () => {
    const h = await head('omni-antenna');
    expect(h.title).toBe('Omni Antenna 5 dBi - Mesh &amp; &quot;Front&quot;');
    const url = `${SITE}/product/omni-antenna`;
    expect(h.canonical).toBe(url);
    expect(h.meta.get('og:url')).toBe(url);
    expect(h.meta.get('og:type')).toBe('product');
    expect(h.meta.get('og:title')).toBe(h.title);
    expect(h.meta.get('og:locale')).toBe('en_US');
    expect(h.meta.get('og:image')).toBe(`${MEDIA}/media/catalog/omni.svg`);
    expect(h.meta.get('product:price:amount')).toBe('49.90');
    expect(h.meta.get('product:price:currency')).toBe('EUR');
    expect(h.meta.get('product:availability')).toBe('in stock');
    // No description in the fixture: no empty description tag.
    expect(h.html).not.toContain('name="description"');
    expect(h.jsonLd).toHaveLength(1);
    const ld = h.jsonLd[0];
    expect(ld).toMatchObject({
      '@type': 'Product',
      name: 'Omni Antenna 5 dBi',
      sku: 'FX-OMNI',
      url,
      image: [`${MEDIA}/media/catalog/omni.svg`],
      brand: { '@type': 'Brand', name: 'Mesh & "Front"' },
      offers: {
        '@type': 'Offer',
        price: '49.90',
        priceCurrency: 'EUR',
        availability: 'https://schema.org/InStock',
        priceSpecification: { valueAddedTaxIncluded: true },
      },
      aggregateRating: { reviewCount: 3 },
    });
  });

  it('gives a variable product an aggregate offer over its variations, and its short description as plain text', async () => {
    const h = await head('alpha-gateway');
    expect(h.meta.get('description')).toBe('Indoor LoRa gateway.');
    expect(h.meta.get('og:description')).toBe('Indoor LoRa gateway.');
    expect(h.jsonLd[0].description).toBe('Indoor LoRa gateway.');
    expect(h.jsonLd[0].offers['@type']).toBe('AggregateOffer');
    expect(Number(h.jsonLd[0].offers.lowPrice)).toBeLessThanOrEqual(Number(h.jsonLd[0].offers.highPrice));
    expect(h.meta.get('product:price:amount')).toBe(h.jsonLd[0].offers.lowPrice);
  });

  it("puts the storefront's own origin in the links when asked, and ignores what is not an http(s) URL", async () => {
    const other = await head('omni-antenna', { frontEndUrl: 'https://woonuxt.example/' });
    expect(other.canonical).toBe('https://woonuxt.example/product/omni-antenna');
    expect(other.jsonLd[0].url).toBe('https://woonuxt.example/product/omni-antenna');
    for (const bad of ['javascript:alert(1)', 'not a url', '']) {
      const h = await head('omni-antenna', { frontEndUrl: bad });
      expect(h.canonical).toBe(`${SITE}/product/omni-antenna`);
    }
  });

  it("follows the request's language", async () => {
    const h = await head('omni-antenna', {}, { 'accept-language': 'de-DE' });
    expect(h.canonical).toBe(`${SITE}/de/product/omni-antenna`);
    expect(h.meta.get('og:locale')).toBe('de_DE');
  });

  it('escapes every value: a hostile product name stays text', async () => {
    const operator = new CatalogOperator(t.engine.database.db, t.engine.catalog);
    const id = await productId(t, 'omni-antenna');
    const before = (await t.engine.catalog.snapshot()).productsById.get(id)!;
    const evil = `Omni "'><script>alert(1)</script><meta name="x" content="y">`;
    await operator.updateProduct(id, { name: evil });
    try {
      const h = await head('omni-antenna');
      // The only tags are the head's own: one title, one JSON-LD script, no injected meta.
      expect(h.html.match(/<script/g)).toHaveLength(1);
      expect(h.html.match(/<title>/g)).toHaveLength(1);
      expect(h.meta.has('x')).toBe(false);
      expect(h.html).not.toContain('<script>alert');
      expect(h.title).toBe(
        'Omni &quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;meta name=&quot;x&quot; content=&quot;y&quot;&gt; - Mesh &amp; &quot;Front&quot;',
      );
      expect(h.jsonLd[0].name).toBe(evil);
    } finally {
      await operator.updateProduct(id, { name: before.name });
    }
  });
});

describe('media URLs', () => {
  it('are absolute under MEDIA_BASE_URL, so a storefront on another origin shows them as they come', async () => {
    const d = await t.data(`{ product(id: "alpha-gateway", idType: SLUG) {
      image { sourceUrl uri } galleryImages { nodes { sourceUrl } }
      ... on VariableProduct { variations(first: 1) { nodes { image { sourceUrl } } } }
    } productCategories(first: 20) { nodes { slug image { sourceUrl } } } }`);
    expect(d.product.image).toEqual({ sourceUrl: `${MEDIA}/media/catalog/alpha.svg`, uri: '/media/catalog/alpha.svg' });
    for (const n of d.product.galleryImages.nodes)
      expect(n.sourceUrl).toMatch(/^https:\/\/cdn\.meshfront\.test\/assets\/media\/catalog\//);
    const images = d.productCategories.nodes
      .map((c: { image: { sourceUrl: string } | null }) => c.image?.sourceUrl)
      .filter(Boolean);
    expect(images.length).toBeGreaterThan(0);
    for (const src of images) expect(src).toMatch(/^https:\/\/cdn\.meshfront\.test\/assets\/media\/catalog\//);
  });
});
