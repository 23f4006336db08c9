import { describe, expect, it } from 'vitest';
import { canonicalUrl } from '../../src/lib/canonical';

const site = 'https://shop.example';
const opts = { lowercasePath: true, queryWhitelist: ['page', 'search', 'category'] };

describe('canonicalUrl', () => {
  it('lower-cases the path when configured', () => {
    expect(canonicalUrl('/Products/LoRa-Gateway', site, opts)).toBe('https://shop.example/products/lora-gateway');
    expect(canonicalUrl('/Products/LoRa', site, { ...opts, lowercasePath: false })).toBe(
      'https://shop.example/Products/LoRa',
    );
  });

  it('keeps only whitelisted query parameters, sorted by name', () => {
    expect(canonicalUrl('/products?utm_source=x&search=ant&page=2&fbclid=1', site, opts)).toBe(
      'https://shop.example/products?page=2&search=ant',
    );
    expect(canonicalUrl('/products?category=b&category=a', site, opts)).toBe(
      'https://shop.example/products?category=a&category=b',
    );
  });

  it('drops empty parameters, trailing slashes and the fragment, and uses the site origin', () => {
    expect(canonicalUrl('http://localhost:4321/de/products/?page=&x=1#top', site, opts)).toBe(
      'https://shop.example/de/products',
    );
    expect(canonicalUrl('/', site, opts)).toBe('https://shop.example/');
  });

  it('does not lower-case query values', () => {
    expect(canonicalUrl('/products?search=RAK7268', site, opts)).toBe('https://shop.example/products?search=RAK7268');
  });
});
