import { describe, expect, it } from 'vitest';
import { matchRedirect, safeRedirectTarget, REDIRECT_RULES } from '../../src/lib/http/redirects';

const prefixes = ['/pt-br', '/de', '/es', '/fr', '/it', ''];

describe('redirect rules', () => {
  it('sends the placeholder routes permanently to their real pages', () => {
    expect(matchRedirect('/shop-todo')).toEqual({ location: '/shop', status: 301 });
    expect(matchRedirect('/checkout-todo')).toEqual({ location: '/checkout', status: 301 });
    expect(matchRedirect('/product-details-todo')).toEqual({ location: '/products', status: 301 });
    expect(matchRedirect('/order-summary-ORIGINAL')).toEqual({ location: '/order-summary', status: 301 });
  });

  it('keeps the locale prefix and the query string', () => {
    expect(matchRedirect('/de/shop-todo', '?page=2', REDIRECT_RULES, prefixes)).toEqual({
      location: '/de/shop?page=2',
      status: 301,
    });
    expect(matchRedirect('/pt-br/checkout-todo/', '', REDIRECT_RULES, prefixes)?.location).toBe('/pt-br/checkout');
  });

  it('sends the account tab paths the support articles link to to the account page with that tab open', () => {
    expect(matchRedirect('/my-account/downloads')).toEqual({ location: '/my-account?tab=downloads', status: 301 });
    expect(matchRedirect('/fr/my-account/orders/', '', REDIRECT_RULES, prefixes)).toEqual({
      location: '/fr/my-account?tab=orders',
      status: 301,
    });
    // The rule's tab wins over one in the request; the request's other parameters stay.
    expect(matchRedirect('/de/my-account/downloads', '?tab=details&debug=1', REDIRECT_RULES, prefixes)?.location).toBe(
      '/de/my-account?tab=downloads&debug=1',
    );
  });

  it('leaves other paths alone', () => {
    expect(matchRedirect('/shop')).toBeNull();
    expect(matchRedirect('/shop-todo-else')).toBeNull();
    expect(matchRedirect('/order-summary-original')).toBeNull();
    expect(matchRedirect('/xx/shop-todo', '', REDIRECT_RULES, prefixes)).toBeNull();
  });

  it('lets outside targets leave the site and refuses script-like protocols', () => {
    const rules = [
      { from: '/out', to: 'https://explorer.example/tx', status: 302 as const },
      { from: '/js', to: 'javascript:alert(1)', status: 302 as const },
      { from: '/data', to: ' DATA:text/html,hi', status: 302 as const },
      { from: '/vb', to: 'vbscript:msgbox', status: 302 as const },
      { from: '/proto', to: '//evil.example', status: 302 as const },
    ];
    expect(matchRedirect('/out', '', rules)).toEqual({ location: 'https://explorer.example/tx', status: 302 });
    expect(matchRedirect('/js', '', rules)).toBeNull();
    expect(matchRedirect('/data', '', rules)).toBeNull();
    expect(matchRedirect('/vb', '', rules)).toBeNull();
    expect(matchRedirect('/proto', '', rules)).toBeNull();
  });

  it('refuses backslash and control-character tricks', () => {
    expect(safeRedirectTarget('/\\evil.example')).toBeNull();
    expect(safeRedirectTarget('java\tscript:alert(1)')).toBeNull();
    expect(safeRedirectTarget('ftp://files.example')).toBeNull();
    expect(safeRedirectTarget('/products')).toBe('/products');
  });
});
