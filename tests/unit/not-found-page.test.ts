import { describe, expect, it } from 'vitest';
import { notFoundMessage, notFoundPage } from '../../src/lib/http/not-found-page';
import { isOrderNumber } from '../../src/lib/order-link';

// The parts of the built 404 page (src/components/error/NotFound.astro) the server rewrites.
const PAGE = [
  '<meta name="description" content="Page introuvable : /fr/404/">',
  '<meta property="og:description" content="Page introuvable : /fr/404/">',
  '<meta name="twitter:description" content="Page introuvable : /fr/404/">',
  '<p class="mt-4" data-error-message>Page introuvable : /fr/404/</p>',
  '<p class="sr-only" data-not-found-template data-before="Page introuvable : " data-after data-page-before="Page &quot;" data-page-after="&quot; absente" data-product="Produit introuvable"></p>',
].join('\n');

describe('the 404 page as the server sends it', () => {
  it('names the requested path in the page text and descriptions instead of /404/', () => {
    const html = notFoundPage(PAGE, '/fr/introuvable');
    expect(html).toContain('<p class="mt-4" data-error-message>Page introuvable : /fr/introuvable</p>');
    expect(html).toContain('<meta name="description" content="Page introuvable : /fr/introuvable">');
    expect(html).toContain('<meta property="og:description" content="Page introuvable : /fr/introuvable">');
    expect(html).toContain('<meta name="twitter:description" content="Page introuvable : /fr/introuvable">');
    expect(html).not.toContain('/fr/404/');
  });

  it('escapes markup in the path, shown percent-decoded', () => {
    const html = notFoundPage(PAGE, '/fr/%3Cimg%20src=x%20onerror=alert(1)%3E%22');
    expect(html).toContain('data-error-message>Page introuvable : /fr/&lt;img src=x onerror=alert(1)&gt;&quot;</p>');
    expect(html).toContain('content="Page introuvable : /fr/&lt;img src=x onerror=alert(1)&gt;&quot;"');
    expect(html).not.toContain('<img');
  });

  it('shows a malformed escape as requested and control characters as replacement characters', () => {
    expect(notFoundMessage(PAGE, '/fr/%E0%A4%A')).toBe('Page introuvable : /fr/%E0%A4%A');
    expect(notFoundMessage(PAGE, '/fr/a%00b')).toBe('Page introuvable : /fr/a\ufffdb');
  });

  it('uses the catalog wording for unknown products and listing pages, as the page script does', () => {
    expect(notFoundMessage(PAGE, '/fr/product/nope')).toBe('Produit introuvable');
    expect(notFoundMessage(PAGE, '/fr/products/page/99')).toBe('Page "/fr/products/page/99" absente');
  });

  it('leaves a page without the template alone', () => {
    const other = '<p data-error-message>Error</p>';
    expect(notFoundPage(other, '/x')).toBe(other);
  });
});

describe('order numbers in order links', () => {
  it('accepts the numbers the engine writes and nothing else', () => {
    expect(isOrderNumber('1')).toBe(true);
    expect(isOrderNumber('4711')).toBe(true);
    for (const bad of ['', 'abc', '0', '012', '12x', '-1', '1.5', '12345678901', 'wc_order_abc']) {
      expect(isOrderNumber(bad), bad).toBe(false);
    }
  });
});
