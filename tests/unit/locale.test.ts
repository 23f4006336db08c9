import { describe, expect, it } from 'vitest';
import { negotiateLocale, parseAcceptLanguage, splitLocalePath } from '../../src/lib/i18n/negotiate';
import { localeRedirect, localeCookie, readCookie } from '../../src/lib/http/locale-rule';

const html = 'text/html,application/xhtml+xml,*/*;q=0.8';

describe('Accept-Language negotiation', () => {
  it('orders by quality, then by position', () => {
    expect(parseAcceptLanguage('fr;q=0.5, de-DE, en;q=0.9')).toEqual(['de-de', 'en', 'fr']);
    expect(parseAcceptLanguage('*, de;q=0')).toEqual([]);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
  });

  it('matches exact regions first, then the language alone', () => {
    expect(negotiateLocale('de-AT,de;q=0.9')?.code).toBe('de_DE');
    expect(negotiateLocale('pt-PT')?.code).toBe('pt_BR');
    expect(negotiateLocale('en-GB,de;q=0.8')?.code).toBe('en_US');
    expect(negotiateLocale('nl-NL,it;q=0.7,fr;q=0.8')?.code).toBe('fr_FR');
    expect(negotiateLocale('ja,zh')).toBeUndefined();
  });

  it('splits locale prefixes off paths', () => {
    expect(splitLocalePath('/pt-br/products')).toMatchObject({ rest: '/products', locale: { code: 'pt_BR' } });
    expect(splitLocalePath('/de')).toMatchObject({ rest: '/', locale: { code: 'de_DE' } });
    expect(splitLocalePath('/design')).toMatchObject({ rest: '/design', locale: { code: 'en_US' } });
  });
});

describe('server locale redirect', () => {
  const base = { method: 'GET', search: '', accept: html };

  it('sends a first-time German visitor to /de and remembers it for a year', () => {
    const r = localeRedirect({ ...base, pathname: '/products', search: '?page=2', acceptLanguage: 'de-DE,de;q=0.9' });
    expect(r).toEqual({ location: '/de/products?page=2', setCookie: localeCookie(negotiateLocale('de')!) });
    // A negotiated language lasts for the visit: only the visitor's own pick is kept for a year.
    expect(r?.setCookie).toBe('locale=de_DE; Path=/; SameSite=Lax');
  });

  it('prefers the cookie over Accept-Language and does not re-set it', () => {
    expect(localeRedirect({ ...base, pathname: '/', acceptLanguage: 'de', cookie: 'a=1; locale=fr_FR' })).toEqual({
      location: '/fr/',
    });
    expect(localeRedirect({ ...base, pathname: '/', acceptLanguage: 'de', cookie: 'locale=en_US' })).toBeNull();
  });

  it('leaves endpoints opened in the browser alone (newsletter confirm, downloads, GraphQL)', () => {
    for (const pathname of [
      '/api/newsletter/confirm',
      '/api/downloads/abc',
      '/graphql',
      '/_ipx/w_320/x.png',
      '/media/catalog/a.svg',
    ]) {
      expect(localeRedirect({ ...base, pathname, search: '?token=x', acceptLanguage: 'de' })).toBeNull();
    }
  });

  it('never redirects explicit locale URLs, so a cookie for another locale cannot loop', () => {
    expect(
      localeRedirect({ ...base, pathname: '/fr/products', cookie: 'locale=de_DE', acceptLanguage: 'de' }),
    ).toBeNull();
    expect(localeRedirect({ ...base, pathname: '/de/', cookie: 'locale=en_US' })).toBeNull();
  });

  it('leaves English visitors, assets, non-HTML and non-GET requests alone', () => {
    expect(localeRedirect({ ...base, pathname: '/', acceptLanguage: 'en-US,en' })).toBeNull();
    expect(localeRedirect({ ...base, pathname: '/', acceptLanguage: '' })).toBeNull();
    expect(localeRedirect({ ...base, pathname: '/og-image.jpg', acceptLanguage: 'de' })).toBeNull();
    expect(
      localeRedirect({ ...base, pathname: '/latest-build.json', accept: 'application/json', acceptLanguage: 'de' }),
    ).toBeNull();
    expect(localeRedirect({ ...base, method: 'POST', pathname: '/graphql', acceptLanguage: 'de' })).toBeNull();
    expect(localeRedirect({ ...base, pathname: '/', acceptLanguage: 'de', cookie: 'locale=xx_XX' })?.location).toBe(
      '/de/',
    );
  });

  it('reads cookies', () => {
    expect(readCookie('a=1; locale=it_IT', 'locale')).toBe('it_IT');
    expect(readCookie('xlocale=it_IT', 'locale')).toBeUndefined();
  });
});
