/**
 * What the Node server writes into prebuilt pages for the URL a visitor asked for, checked over plain
 * HTTP (no JavaScript runs): the 404 page names the requested path, HTML-escaped, in the path's locale;
 * an order page whose number cannot be an order's is a 404; a prebuilt page's canonical URL keeps the
 * whitelisted query parameters of the request and drops the rest.
 */
import { test, expect, type APIRequestContext } from '@playwright/test';

async function get(request: APIRequestContext, url: string) {
  const response = await request.get(url, { headers: { accept: 'text/html' }, maxRedirects: 0 });
  return { status: response.status(), html: await response.text() };
}

const errorMessage = (html: string) => /<p\b[^>]*data-error-message[^>]*>([^<]*)<\/p>/.exec(html)?.[1];
const metaDescription = (html: string) => /<meta name="description" content="([^"]*)"/.exec(html)?.[1];
const canonical = (html: string) => /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];
const ogUrl = (html: string) => /<meta property="og:url" content="([^"]*)"/.exec(html)?.[1];
const alternate = (html: string, hreflang: string) =>
  new RegExp(`<link rel="alternate" hreflang="${hreflang}" href="([^"]*)"`).exec(html)?.[1];

test.describe('the 404 page without JavaScript', () => {
  test('names the requested path in the language of its locale prefix, with status 404', async ({ request }) => {
    const cases = [
      ['/no-such-page', 'Page not found: /no-such-page'],
      ['/de/gibt-es-nicht', 'Seite nicht gefunden: /de/gibt-es-nicht'],
      ['/fr/introuvable', 'Page introuvable : /fr/introuvable'],
      ['/pt-br/nao-existe/', 'Página não encontrada: /pt-br/nao-existe/'],
    ] as const;
    for (const [path, message] of cases) {
      const { status, html } = await get(request, path);
      expect(status, path).toBe(404);
      expect(errorMessage(html), path).toBe(message);
      expect(metaDescription(html), path).toBe(message);
      expect(html).not.toContain('/404/');
    }
  });

  test('shows a path with markup in it as text', async ({ request }) => {
    const { status, html } = await get(request, '/es/%3Cscript%3Ealert(1)%3C%2Fscript%3E%22x');
    expect(status).toBe(404);
    expect(errorMessage(html)).toBe('Página no encontrada: /es/&lt;script&gt;alert(1)&lt;/script&gt;&quot;x');
    expect(html).not.toContain('<script>alert(1)');
  });
});

test('an order page whose number cannot be an order’s is the 404 page', async ({ request }) => {
  for (const path of ['/order-summary/abc', '/de/order-summary/12x', '/checkout/order-received/0?key=wc_order_x']) {
    const { status, html } = await get(request, path);
    expect(status, path).toBe(404);
    expect(errorMessage(html), path).toContain(path.split('?')[0]);
  }
  // A well-formed number is the order page; the island asks the engine whether the visitor may see it.
  expect((await get(request, '/order-summary/999999')).status).toBe(200);
});

test.describe('canonical URL of a prebuilt page', () => {
  test('keeps the whitelisted query parameters of the request and drops tracking ones', async ({ request }) => {
    const plain = await get(request, '/products');
    const base = canonical(plain.html);
    expect(base).toMatch(/\/products$/);

    const paged = await get(request, '/products?utm_source=mail&page=2&search=ant&fbclid=1');
    expect(paged.status).toBe(200);
    expect(canonical(paged.html)).toBe(`${base}?page=2&amp;search=ant`);
    expect(ogUrl(paged.html)).toBe(`${base}?page=2&amp;search=ant`);
    expect(alternate(paged.html, 'de-DE')).toBe(
      `${base?.replace(/\/products$/, '/de/products')}?page=2&amp;search=ant`,
    );

    const tracked = await get(request, '/de/products?utm_source=mail&utm_medium=email');
    expect(canonical(tracked.html)).toBe(base?.replace(/\/products$/, '/de/products'));
    expect(tracked.html).not.toContain('utm_source');
  });
});
