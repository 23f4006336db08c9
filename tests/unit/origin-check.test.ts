// The cross-site form guard for on-demand routes: Astro's origin rule, with one token-authorised exemption.
import { describe, expect, it } from 'vitest';
import { isForbiddenCrossSiteRequest } from '../../src/lib/http/origin-check';

const site = 'https://shop.example';
function post(path: string, headers: Record<string, string>): [Request, URL] {
  const url = new URL(path, site);
  return [new Request(url, { method: 'POST', headers, body: 'x=1' }), url];
}

describe('cross-site form guard', () => {
  it('refuses a form-encoded POST from another origin', () => {
    expect(
      isForbiddenCrossSiteRequest(
        ...post('/api/newsletter/subscribe', {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://evil.example',
        }),
      ),
    ).toBe(true);
    expect(
      isForbiddenCrossSiteRequest(
        ...post('/api/contact-form/create', {
          'content-type': 'multipart/form-data; boundary=x',
          origin: 'https://evil.example',
        }),
      ),
    ).toBe(true);
    expect(isForbiddenCrossSiteRequest(...post('/api/contact-form/create', { 'content-type': 'text/plain' }))).toBe(
      true,
    );
  });

  it('refuses a POST with neither content type nor matching origin', () => {
    const url = new URL('/graphql', site);
    expect(isForbiddenCrossSiteRequest(new Request(url, { method: 'POST' }), url)).toBe(true);
  });

  it('lets same-origin forms and JSON requests through', () => {
    expect(
      isForbiddenCrossSiteRequest(
        ...post('/api/newsletter/unsubscribe', { 'content-type': 'application/x-www-form-urlencoded', origin: site }),
      ),
    ).toBe(false);
    expect(
      isForbiddenCrossSiteRequest(
        ...post('/graphql', { 'content-type': 'application/json', origin: 'https://evil.example' }),
      ),
    ).toBe(false);
    expect(
      isForbiddenCrossSiteRequest(
        ...post('/api/stripe/webhook', { 'content-type': 'application/json; charset=utf-8' }),
      ),
    ).toBe(false);
  });

  it('never blocks safe methods', () => {
    const url = new URL('/api/downloads/abc', site);
    expect(
      isForbiddenCrossSiteRequest(
        new Request(url, { method: 'GET', headers: { origin: 'https://evil.example' } }),
        url,
      ),
    ).toBe(false);
  });

  it('exempts only RFC 8058 one-click unsubscribe, which its URL token authorises', () => {
    expect(
      isForbiddenCrossSiteRequest(
        ...post('/api/newsletter/unsubscribe?token=abc', { 'content-type': 'application/x-www-form-urlencoded' }),
      ),
    ).toBe(false);
    expect(
      isForbiddenCrossSiteRequest(
        ...post('/api/newsletter/unsubscribe/', { 'content-type': 'application/x-www-form-urlencoded' }),
      ),
    ).toBe(false);
    expect(
      isForbiddenCrossSiteRequest(
        ...post('/api/newsletter/unsubscribe-all', { 'content-type': 'application/x-www-form-urlencoded' }),
      ),
    ).toBe(true);
  });
});
