import { describe, expect, it } from 'vitest';
import { canonicalWithQuery } from '../../src/lib/canonical';
import { rewriteCanonicalQuery } from '../../src/lib/http/canonical-query';

// The head of a prebuilt page as Seo.astro writes it (built without a query string).
const HEAD = [
  '<link rel="canonical" href="https://shop.example/products" data-canonical-query="page,search,category">',
  '<link rel="alternate" hreflang="en-US" href="https://shop.example/products">',
  '<link rel="alternate" hreflang="de-DE" href="https://shop.example/de/products">',
  '<link rel="alternate" hreflang="x-default" href="https://shop.example/products">',
  '<link rel="stylesheet" href="/_astro/site.css">',
  '<meta property="og:url" content="https://shop.example/products">',
].join('\n');

describe('canonical URL of a prebuilt page for the requested query', () => {
  it('adds the whitelisted parameters, sorted, to canonical, alternates and og:url', () => {
    const html = rewriteCanonicalQuery(HEAD, '?utm_source=mail&search=ant&page=2&fbclid=x');
    expect(html).toContain(
      '<link rel="canonical" href="https://shop.example/products?page=2&amp;search=ant" data-canonical-query="page,search,category">',
    );
    expect(html).toContain('hreflang="de-DE" href="https://shop.example/de/products?page=2&amp;search=ant"');
    expect(html).toContain('hreflang="x-default" href="https://shop.example/products?page=2&amp;search=ant"');
    expect(html).toContain('<meta property="og:url" content="https://shop.example/products?page=2&amp;search=ant">');
    expect(html).toContain('<link rel="stylesheet" href="/_astro/site.css">');
    expect(html).not.toContain('utm_source');
  });

  it('escapes parameter values', () => {
    const html = rewriteCanonicalQuery(HEAD, '?search=%22%3E%3Cscript%3E');
    expect(html).toContain('href="https://shop.example/products?search=%22%3E%3Cscript%3E"');
    expect(html).not.toContain('"><script>');
  });

  it('changes nothing without a whitelisted parameter, or on a page without a marked canonical link', () => {
    expect(rewriteCanonicalQuery(HEAD, '?utm_source=mail&page=')).toBeNull();
    expect(rewriteCanonicalQuery(HEAD, '')).toBeNull();
    expect(rewriteCanonicalQuery('<link rel="canonical" href="https://shop.example/x">', '?page=2')).toBeNull();
  });

  it('canonicalWithQuery keeps the path as built', () => {
    expect(canonicalWithQuery('https://shop.example/de/Products', '?page=3&x=1', ['page'])).toBe(
      'https://shop.example/de/Products?page=3',
    );
  });
});
